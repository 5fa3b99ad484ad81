import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { writeComposer } from '../../../fixtures/composer/composer-session.js';
import { StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import { codeBlockComposer } from '../../../fixtures/file-edits/edit-tool-calls.js';
import { openWarehouse } from '../../../src/load/duckdb/duckdb-warehouse.js';
import { WAREHOUSE_SCHEMA_VERSION } from '../../../src/load/duckdb/warehouse-version.js';
import { tempDir } from '../../helpers/run-cli.js';
import { queryRows, runJson } from '../../helpers/warehouse-cli.js';

const ID = 'c0de0b10-0000-4000-8000-000000000002';

/** Turns a current warehouse into what a version 4 build wrote: no `file_edits` table. */
async function asVersion4(path: string): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  await connection.run('DROP TABLE file_edits');
  await connection.run("UPDATE etl_meta SET value = '4' WHERE key = 'schema_version'");
  connection.closeSync();
  instance.closeSync();
}

describe('schema version 5: file_edits of an older warehouse', () => {
  it('backfills tool-call edits from stored rows, then one re-read adds code-block edits in place', async () => {
    const root = tempDir('etl-edits-upgrade-');
    const userDir = join(root, 'User');
    const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
    writeComposer(db, codeBlockComposer(ID));
    db.close();
    const path = join(root, 'w.duckdb');
    const target = `duckdb:${path}`;
    runJson(['--cursor-user-dir', userDir, '--target', target]);
    const [before] = queryRows(target, 'SELECT view_digest FROM sessions');
    await asVersion4(path);

    const warehouse = await openWarehouse(path, 'write');
    warehouse.close();
    expect(queryRows(target, 'SELECT tool_name, tool_ordinal FROM file_edits')).toEqual([
      { tool_name: 'search_replace', tool_ordinal: 0 },
    ]);

    const run = runJson(['--since-last', '--cursor-user-dir', userDir, '--target', target]);
    expect(run.counts).toMatchObject({ sessionsUnchanged: 1, sessionsReplaced: 0 });
    expect(queryRows(target, 'SELECT count(*) AS n FROM file_edits')).toEqual([{ n: 4 }]);
    expect(queryRows(target, 'SELECT view_digest FROM sessions')).toEqual([before]);
    expect(queryRows(target, "SELECT value FROM etl_meta WHERE key = 'schema_version'")).toEqual([
      { value: String(WAREHOUSE_SCHEMA_VERSION) },
    ]);
  });
});
