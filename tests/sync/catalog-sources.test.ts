import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSourceWorld } from '../../fixtures/sync/source-world.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

describe('a source whose catalog fails on its own bytes', () => {
  it('"otherwise it is fatal for that source/session": the other sources commit, the archive keeps its sessions, exit 4', async () => {
    const dir = tempDir('etl-catalog-unread-');
    const world = buildSourceWorld(join(dir, 'sources'));
    const noStore = join(dir, 'no-store');
    mkdirSync(noStore);
    const warehouse = join(dir, 'w.duckdb');
    const run = (storeRoot: string, ...extra: string[]) =>
      runCli([
        'run',
        '--json',
        '--cursor-user-dir',
        world.userDir,
        '--cursor-store-root',
        storeRoot,
        '--target',
        `duckdb:${warehouse}`,
        ...extra,
      ]);
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
});
