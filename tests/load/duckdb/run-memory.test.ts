import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '../../../src/load/duckdb/duckdb-api.js';
import { openWarehouse } from '../../../src/load/duckdb/duckdb-warehouse.js';
import { buildInstanceOptions, WRITER_ROW_GROUP_ROWS } from '../../../src/load/duckdb/run-memory.js';
import { tempDir } from '../../helpers/run-cli.js';

async function settings(path: string, mode: 'write' | 'read'): Promise<Record<string, string>> {
  const opened = await openWarehouse(path, mode);
  try {
    const reader = await opened.connection.runAndReadAll(
      `SELECT current_setting('memory_limit') AS memory, current_setting('checkpoint_threshold') AS checkpoint,
         current_setting('allocator_background_threads') AS purge, current_setting('threads') AS threads,
         current_setting('write_buffer_row_group_count') AS buffered,
         current_setting('write_buffer_row_group_memory_limit') AS bufferedBytes`,
    );
    const row = reader.getRowObjects()[0]!;
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v)]));
  } finally {
    opened.close();
  }
}

describe('DuckDB settings of a writing run', () => {
  it("bound the buffer pool (64 MB), purge freed pages, run one DuckDB thread and buffer a batch's row groups until its COMMIT; a read-only open keeps the defaults", async () => {
    const path = join(tempDir(), 'w.duckdb');
    expect(await settings(path, 'write')).toEqual({
      memory: '61.0 MiB',
      checkpoint: '16.0 MiB',
      purge: 'true',
      threads: '1',
      buffered: '64',
      bufferedBytes: '30.5 MiB',
    });
    expect(await settings(path, 'read')).toMatchObject({ purge: 'false', buffered: '5' });
  });

  it('the Parquet build keeps a 96 MB pool on one thread, purges freed pages and flushes its allocator after 8 MB buffers', async () => {
    const instance = await DuckDBInstance.create(join(tempDir(), 'stage.duckdb'), buildInstanceOptions());
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(
      "SELECT current_setting('memory_limit'), current_setting('allocator_background_threads'), current_setting('threads'), current_setting('allocator_bulk_deallocation_flush_threshold')",
    );
    expect(reader.getRows()[0]).toEqual(['91.5 MiB', true, 1n, '7.6 MiB']);
    connection.closeSync();
    instance.closeSync();
  });

  it('a small run pins one block pair per column of every table without spilling them; a larger run keeps the base pool', async () => {
    const spilled = async (small: boolean): Promise<number> => {
      const opened = await openWarehouse(join(tempDir(), 'small.duckdb'), 'write');
      const { connection } = opened;
      try {
        await opened.fitSmallRun(small ? 1 : WRITER_ROW_GROUP_ROWS);
        const columns = await connection.runAndReadAll(
          `SELECT table_name, list(CASE WHEN data_type LIKE 'TIMESTAMP%' THEN 'now()' WHEN data_type IN ('VARCHAR', 'JSON')
             THEN '''1''' WHEN data_type = 'BOOLEAN' THEN 'true' ELSE '1' END ORDER BY column_index) AS v
             FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main'
             AND table_name NOT LIKE 'v\\_%' ESCAPE '\\' GROUP BY table_name`,
        );
        // Rows appended after checkpointed ones open a transient block per column.
        for (const step of ['CHECKPOINT', 'COMMIT']) {
          await connection.run('BEGIN TRANSACTION');
          for (const [table, values] of columns.getRowsJS())
            await connection.run(`INSERT INTO ${table} VALUES (${(values as string[]).join(', ')})`);
          await connection.run('COMMIT');
          if (step === 'CHECKPOINT') await connection.run(step);
        }
        const reader = await connection.runAndReadAll(
          'SELECT sum(temporary_storage_bytes)::BIGINT FROM duckdb_memory()',
        );
        return Number(reader.getRows()[0]![0]);
      } finally {
        opened.close();
      }
    };
    expect(await spilled(true)).toBe(0);
    expect(await spilled(false)).toBeGreaterThan(0);
  });
});
