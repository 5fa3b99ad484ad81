import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_DB_DAMAGE } from '../../fixtures/hostile/global-db-damage.js';
import { buildSampleCorpus } from '../../fixtures/sample/sample-corpus.js';
import {
  type ArchivedSession,
  archivedSessions,
  archiveRun,
  verifyProblems,
} from '../helpers/archive-run.js';
import { tempDir } from '../helpers/run-cli.js';

let healthy: string;
let before: Map<string, ArchivedSession>;

beforeAll(async () => {
  const root = tempDir('etl-unread-');
  const { userDir } = buildSampleCorpus(join(root, 'cursor'));
  healthy = join(root, 'healthy.duckdb');
  expect((await archiveRun(healthy, ['--cursor-user-dir', userDir])).code).toBe(0);
  before = await archivedSessions(healthy);
});

describe('"Absence may only follow a complete read of the source that used to hold the session"', () => {
  for (const damage of GLOBAL_DB_DAMAGE) {
    for (const mode of ['full', 'since-last'] as const) {
      it(`${damage.name} global DB (${mode}): exit 4, archived sessions present and unchanged`, async () => {
        const root = tempDir('etl-unread-');
        const { userDir } = buildSampleCorpus(join(root, 'cursor'));
        const warehouse = join(root, 'w.duckdb');
        copyFileSync(healthy, warehouse);
        const lift = damage.apply(join(userDir, 'globalStorage', 'state.vscdb'));
        try {
          const run = await archiveRun(
            warehouse,
            ['--cursor-user-dir', userDir],
            mode === 'since-last' ? ['--since-last'] : [],
          );
          expect({ code: run.code, codes: run.codes }).toEqual({ code: 4, codes: ['SOURCE_UNREADABLE'] });
        } finally {
          lift();
        }
        expect(await archivedSessions(warehouse)).toEqual(before);
        expect(await verifyProblems(warehouse)).toEqual([]);
      });
    }
  }
});
