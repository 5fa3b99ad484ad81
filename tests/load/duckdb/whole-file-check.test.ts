import { mkdtempSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredWarehouseBytes, warehouseBlockSize } from '../../../fixtures/hostile/archive-trust-cases.js';
import { DuckDBInstance } from '../../../src/load/duckdb/duckdb-api.js';
import { assertWholeFile } from '../../../src/load/duckdb/whole-file-check.js';

/** A file whose last checkpoint trimmed trailing free blocks after writing a header that counts them. */
async function trimmedWarehouse(): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'whole-file-')), 'w.duckdb');
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  await connection.run('CREATE TABLE kept AS SELECT range AS id, md5(range::VARCHAR) AS v FROM range(20000)');
  await connection.run('CHECKPOINT');
  await connection.run(
    'CREATE TABLE dropped AS SELECT range AS id, md5(range::VARCHAR) AS v FROM range(400000)',
  );
  await connection.run('CHECKPOINT');
  await connection.run('DROP TABLE dropped');
  await connection.run('CHECKPOINT');
  connection.closeSync();
  instance.closeSync();
  return path;
}

describe('whole-file check of a DuckDB warehouse', () => {
  it('accepts a file a checkpoint trimmed of free trailing blocks, though its header counts them', async () => {
    const path = await trimmedWarehouse();
    expect(statSync(path).size).toBeLessThan(declaredWarehouseBytes(path));
    await expect(assertWholeFile(path)).resolves.toBeUndefined();
  });

  it('refuses the same file cut by one used block, or by part of a block (WAREHOUSE_TRUNCATED)', async () => {
    for (const cut of [(size: number, block: number) => size - block, (size: number) => size - 1000]) {
      const path = await trimmedWarehouse();
      truncateSync(path, cut(statSync(path).size, warehouseBlockSize(path)));
      await expect(assertWholeFile(path)).rejects.toMatchObject({ code: 'WAREHOUSE_TRUNCATED' });
    }
  });
});
