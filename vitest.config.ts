import { defineConfig } from 'vitest/config';

/**
 * Two lanes. `npm test` runs `fast` and `fast-isolated`; `npm run test:reliability` runs `reliability`:
 * the slow families under tests/reliability/ and every whole-CLI end-to-end file (`*.e2e.test.ts`).
 * A test lands by its folder or name.
 */
const RELIABILITY = ['tests/reliability/**/*.test.ts', 'tests/**/*.e2e.test.ts'];
/**
 * Fast files share their worker's module cache; these replace a module with `vi.mock`, so each gets a
 * fresh one. `tests/architecture/module-mocks.test.ts` keeps the list complete.
 */
export const MODULE_MOCKING = [
  'tests/extract/backup/zip-index.test.ts',
  'tests/extract/capture/capture-adapter.test.ts',
  'tests/extract/composer/discover-user-dir.test.ts',
  'tests/extract/sqlite/sqlite-driver.test.ts',
  'tests/extract/store/store-inventory.test.ts',
  'tests/sync/wsl-io-retry.test.ts',
];

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
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['tests/**/*.test.ts'],
          exclude: [...RELIABILITY, ...MODULE_MOCKING],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'fast-isolated', include: MODULE_MOCKING } },
      { extends: true, test: { name: 'reliability', include: RELIABILITY } },
    ],
  },
});
