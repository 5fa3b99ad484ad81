import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBenchCorpus } from '../../fixtures/bench/bench-corpus.js';
import { buildSourceWorld } from '../../fixtures/sync/source-world.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { runRoots, tempDir } from '../helpers/run-cli.js';

describe('a source whose catalog fails on its own bytes', () => {
  it('"otherwise it is fatal for that source/session": the other sources commit, the archive keeps its sessions, exit 4', async () => {
    const dir = tempDir('etl-catalog-unread-');
    const world = buildSourceWorld(join(dir, 'sources'));
    const noStore = join(dir, 'no-store');
    mkdirSync(noStore);
    const warehouse = join(dir, 'w.duckdb');
    const run = (storeRoot: string, ...extra: string[]) =>
      runRoots(world.userDir, storeRoot, warehouse, ...extra);
    const sessions = () =>
      queryRows(warehouse, 'select session_id, fidelity, message_count from sessions order by 1');
    expect(run(noStore).code).toBe(0);
    const archived = await sessions();
    expect(archived.length).toBe(world.composers.length);

    // The global DB's catalog scan lists more rows than the bound admits.
    const limited = run(
      world.storeRoot,
      '--source-limit',
      'sqlitePageRows=1',
      '--source-limit',
      'sqliteRowCount=2',
    );
    expect(limited.code).toBe(4);
    expect(limited.stdout).toBe('');
    expect(JSON.parse(limited.stderr).error).toMatchObject({
      code: 'SOURCE_LIMIT_EXCEEDED',
      details: { bound: 'sqliteRowCount', outcome: 'fatal' },
    });
    const after = await sessions();
    for (const session of archived) expect(after).toContainEqual(session);
    expect(after.length).toBeGreaterThan(archived.length);
    const absent = await queryRows(
      warehouse,
      'select session_id from etl_session_state where not present_in_source',
    );
    expect(absent).toEqual([]);
    const failures = await queryRows(
      warehouse,
      `select session_id, source_ref like 'src:%' as keyed from diagnostics
        where code = 'SOURCE_LIMIT_EXCEEDED' and severity = 'error'`,
    );
    expect(failures).toEqual([{ session_id: null, keyed: true }]);
  });

  it('a session archived with an occurrence in the unread source keeps its archived view: never rebuilt from its other sources alone', async () => {
    const dir = tempDir('etl-catalog-held-');
    // Every session is both a Composer session and a Store one (store.db or transcript), no workspace DB.
    const corpus = buildBenchCorpus(join(dir, 'corpus'), {
      sessions: 6,
      messages: 4,
      seed: 7,
      storeShare: 1,
      mergedShare: 1,
    });
    rmSync(join(corpus.userDir, 'workspaceStorage'), { recursive: true, force: true });
    const warehouse = join(dir, 'w.duckdb');
    const run = (...extra: string[]) => runRoots(corpus.userDir, corpus.storeRoot, warehouse, ...extra);
    const views = () =>
      queryRows(warehouse, 'select session_id, view_digest, fidelity from sessions order by 1');
    expect(run().code).toBe(0);
    const archived = await views();
    expect(archived).toHaveLength(6);
    for (const extra of [[], ['--since-last']]) {
      const limited = run(
        ...extra,
        '--source-limit',
        'sqlitePageRows=1',
        '--source-limit',
        'sqliteRowCount=2',
      );
      expect(limited.code).toBe(4);
      expect(await views()).toEqual(archived);
    }
  });
});
