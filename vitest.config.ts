import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    setupFiles: ['tests/setup/private-tmpdir.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // In CI a JSON report lets .ci/run print the plain "N passed, N failed" closing line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.ci/vitest-report.json' }]] : ['default'],
  },
});
