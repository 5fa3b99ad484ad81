import { defineConfig } from 'vitest/config';

/**
 * Two lanes. `npm test` runs `fast`; `npm run test:reliability` runs `reliability`: the slow families
 * under tests/reliability/ and every whole-CLI end-to-end file (`*.e2e.test.ts`). A test lands by its
 * folder or name.
 */
const RELIABILITY = ['tests/reliability/**/*.test.ts', 'tests/**/*.e2e.test.ts'];

export default defineConfig({
  test: {
    setupFiles: ['tests/setup/private-tmpdir.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // In CI a JSON report lets .ci/run print the plain "N passed, N failed" closing line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.ci/vitest-report.json' }]] : ['default'],
    projects: [
      { extends: true, test: { name: 'fast', include: ['tests/**/*.test.ts'], exclude: RELIABILITY } },
      { extends: true, test: { name: 'reliability', include: RELIABILITY } },
    ],
  },
});
