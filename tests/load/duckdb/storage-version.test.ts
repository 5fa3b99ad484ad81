import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSampleCorpus } from '../../../fixtures/sample/sample-corpus.js';
import { DuckDBInstance } from '../../../src/load/duckdb/duckdb-api.js';
import { openWarehouse } from '../../../src/load/duckdb/duckdb-warehouse.js';
import { NEW_WAREHOUSE_STORAGE_VERSION } from '../../../src/load/duckdb/storage-version.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';

/** The storage format DuckDB reports for the warehouse file, as a writer opens it. */
async function storageVersion(path: string): Promise<string> {
  const opened = await openWarehouse(path, 'write');
  try {
    const reader = await opened.connection.runAndReadAll(
      "SELECT tags['storage_version'] AS v FROM duckdb_databases() WHERE database_name = 'warehouse'",
    );
    return String(reader.getRowObjects()[0]!.v);
  } finally {
    opened.close();
  }
}

describe('the storage format of the warehouse file', () => {
  it(`a warehouse a run creates is written in DuckDB's ${NEW_WAREHOUSE_STORAGE_VERSION} format (compressed strings), and stays in it`, async () => {
    const warehouse = join(tempDir(), 'w.duckdb');
    const userDir = buildSampleCorpus(join(tempDir(), 'cursor')).userDir;
    const args = ['run', '--json', '--cursor-user-dir', userDir, '--target', `duckdb:${warehouse}`];
    expect(runCli(args).code).toBe(0);
    expect(runCli([...args, '--since-last']).code).toBe(0);
    expect(await storageVersion(warehouse)).toBe(`${NEW_WAREHOUSE_STORAGE_VERSION}+`);
  });

  it('a warehouse file created in an older format keeps it: a run neither rewrites nor upgrades it', async () => {
    const warehouse = join(tempDir(), 'old.duckdb');
    const instance = await DuckDBInstance.create(warehouse);
    (await instance.connect()).closeSync();
    instance.closeSync();
    expect(await storageVersion(warehouse)).toBe('v1.0.0+');
    const userDir = buildSampleCorpus(join(tempDir(), 'cursor')).userDir;
    const result = runCli(['run', '--json', '--cursor-user-dir', userDir, '--target', `duckdb:${warehouse}`]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).run.counts.sessionsInserted).toBeGreaterThan(0);
    expect(await storageVersion(warehouse)).toBe('v1.0.0+');
  });
});
