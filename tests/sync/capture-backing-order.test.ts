/**
 * A capture that reuses a Composer session's ID, loaded in either order and in one run with both:
 * the archived session ends the same (Cursor's complete data backs it, the capture is a superseded
 * contributor and a CAPTURE_SET_ASIDE diagnostic), whichever sources each run includes.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSharedSession } from '../../fixtures/hostile/capture-backing.js';
import { archivedSessions, archiveRun, verifyProblems } from '../helpers/archive-run.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';

const ID = 'sess-c0ffee-shared-01';

function sources(root: string) {
  return writeSharedSession(root, ID, 'complete');
}

async function backing(warehouse: string) {
  const session = await queryRows(
    warehouse,
    `SELECT resolved_source FROM sessions WHERE session_id = '${ID}'`,
  );
  const instances = await queryRows(
    warehouse,
    `SELECT representation, state, reason_code FROM source_instances WHERE session_id = '${ID}' ORDER BY instance_ordinal`,
  );
  return { session, instances, sessions: await archivedSessions(warehouse) };
}

describe('a capture-only run never overwrites a Composer-backed session that reuses its ID', {
  timeout: 300_000,
}, () => {
  it('Cursor first, then captures only, then both: archive as one run with both', async () => {
    const root = tempDir('etl-backing-');
    const run = sources(root);
    const expected = join(root, 'both.duckdb');
    const mixed = await archiveRun(expected, run.both);
    expect({ code: mixed.code, codes: mixed.codes }).toEqual({ code: 0, codes: ['CAPTURE_SET_ASIDE'] });
    const reference = await backing(expected);
    expect(reference.session).toEqual([{ resolved_source: 'composer' }]);
    expect(reference.instances).toEqual([
      { representation: 'cli-stream', state: 'superseded', reason_code: 'capture-superseded-by-cursor-data' },
      { representation: 'composer-global', state: 'contributed', reason_code: null },
    ]);

    const warehouse = join(root, 'w.duckdb');
    expect((await archiveRun(warehouse, run.cursor)).code).toBe(0);
    const captureOnly = await archiveRun(warehouse, run.capture, ['--since-last']);
    expect({ code: captureOnly.code, codes: captureOnly.codes }).toEqual({
      code: 0,
      codes: ['CAPTURE_SET_ASIDE'],
    });
    expect(await backing(warehouse)).toEqual(reference);
    expect(await verifyProblems(warehouse)).toEqual([]);
    for (const args of [run.capture, run.both]) {
      const again = await archiveRun(warehouse, args);
      expect(again.code).toBe(0);
      expect(await backing(warehouse)).toEqual(reference);
      expect(await verifyProblems(warehouse)).toEqual([]);
    }
    // A run that does not read the capture records only the contributors it read; the content stays.
    expect((await archiveRun(warehouse, run.cursor)).code).toBe(0);
    expect((await backing(warehouse)).sessions).toEqual(reference.sessions);
    expect(await verifyProblems(warehouse)).toEqual([]);
  });

  it('captures only first, then Cursor: the richer complete Composer view backs the session', async () => {
    const root = tempDir('etl-backing-');
    const run = sources(root);
    const expected = join(root, 'both.duckdb');
    expect((await archiveRun(expected, run.both)).code).toBe(0);
    const reference = (await backing(expected)).sessions;

    const warehouse = join(root, 'w.duckdb');
    expect((await archiveRun(warehouse, run.capture)).code).toBe(0);
    expect((await backing(warehouse)).session).toEqual([{ resolved_source: 'cli-stream' }]);
    const cursor = await archiveRun(warehouse, run.cursor, ['--since-last']);
    expect(cursor.code).toBe(0);
    expect((await backing(warehouse)).sessions).toEqual(reference);
    expect(await verifyProblems(warehouse)).toEqual([]);
    const captureAgain = await archiveRun(warehouse, run.capture);
    expect({ code: captureAgain.code, codes: captureAgain.codes }).toEqual({
      code: 0,
      codes: ['CAPTURE_SET_ASIDE'],
    });
    expect((await backing(warehouse)).sessions).toEqual(reference);
    expect(await verifyProblems(warehouse)).toEqual([]);
  });
});
