import { mkdtempSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { declaredWarehouseBytes, warehouseBlockSize } from '../../../fixtures/hostile/archive-trust-cases.js';
import { DuckDBInstance } from '../../../src/load/duckdb/duckdb-api.js';
import { assertWholeFile, restoreTrimmedTail } from '../../../src/load/duckdb/whole-file-check.js';

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

async function keptRows(path: string): Promise<number> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const reader = await connection.runAndReadAll('SELECT count(DISTINCT v) AS n FROM kept');
  connection.closeSync();
  instance.closeSync();
  return Number(reader.getRowObjects()[0]!.n);
}

const refusal = { code: 'WAREHOUSE_TRUNCATED' };

describe('whole-file check of a DuckDB warehouse', () => {
  it('a writer gives back the free blocks its checkpoint trimmed: the file is whole again, its data intact', async () => {
    const path = await trimmedWarehouse();
    expect(statSync(path).size).toBeLessThan(declaredWarehouseBytes(path));
    expect(() => assertWholeFile(path)).toThrow(expect.objectContaining(refusal));
    restoreTrimmedTail(path);
    expect(statSync(path).size).toBe(declaredWarehouseBytes(path));
    expect(() => assertWholeFile(path)).not.toThrow();
    expect(await keptRows(path)).toBe(20000);
  });

  it('a whole file cut by whole blocks or by part of one is refused (WAREHOUSE_TRUNCATED)', async () => {
    for (const cut of [(size: number, block: number) => size - block, (size: number) => size - 1000]) {
      const path = await trimmedWarehouse();
      restoreTrimmedTail(path);
      truncateSync(path, cut(statSync(path).size, warehouseBlockSize(path)));
      expect(() => assertWholeFile(path)).toThrow(expect.objectContaining(refusal));
    }
  });
});
