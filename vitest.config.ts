import { defineConfig } from 'vitest/config';

/**
 * Two lanes. `npm test` runs `fast`: every test outside tests/reliability/. `npm run test:reliability`
 * runs `reliability`: the slow families under tests/reliability/ (crash safety and recovery, hostile
 * corpora, concurrency, the worker pool over whole corpora, privacy and permissions over whole
 * runs). A new test lands by its folder.
 */
const RELIABILITY = ['tests/reliability/**/*.test.ts'];

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
