/**
 * Property family of archive trust: a capture reusing a Composer session's ID, read by every order
 * of runs over Cursor roots only, captures only and both, then captures only again. After every run `etl verify`
 * passes, and the archived session's content is what one run reading both would store.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runOrders, writeSharedSession } from '../../fixtures/hostile/capture-backing.js';
import { archivedSessions, archiveRun, verifyProblems } from '../helpers/archive-run.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';

const ID = 'sess-c0ffee-orders-01';

async function content(warehouse: string) {
  const [session] = await queryRows(
    warehouse,
    `SELECT resolved_source, fidelity, view_digest FROM sessions WHERE session_id = '${ID}'`,
  );
  return {
    session: { ...session, view_digest: undefined },
    rows: (await archivedSessions(warehouse)).get(ID),
  };
}

describe('a capture and Cursor data of one session: the archive does not depend on which sources each run read', {
  timeout: 300_000,
}, () => {
  for (const composer of ['complete', 'partial'] as const) {
    for (const order of runOrders()) {
      it(`Composer ${composer}; runs ${order.join(' → ')}`, async () => {
        const root = tempDir('etl-orders-');
        const runs = writeSharedSession(root, ID, composer);
        const reference = join(root, 'both.duckdb');
        expect((await archiveRun(reference, runs.both)).code).toBe(0);
        const expected = await content(reference);
        const warehouse = join(root, 'w.duckdb');
        const read = new Set<string>();
        for (const sources of order) {
          const run = await archiveRun(warehouse, runs[sources], ['--since-last']);
          expect({ sources, code: run.code }).toEqual({ sources, code: 0 });
          expect(await verifyProblems(warehouse)).toEqual([]);
          for (const kind of sources === 'both' ? ['cursor', 'capture'] : [sources]) read.add(kind);
          // Until the runs so far have read both the capture and Cursor's data, none saw both.
          if (read.size === 2) expect(await content(warehouse)).toEqual(expected);
        }
      });
    }
  }
});
