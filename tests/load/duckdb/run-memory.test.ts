import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '../../../src/load/duckdb/duckdb-api.js';
import { openWarehouse } from '../../../src/load/duckdb/duckdb-warehouse.js';
import { buildInstanceOptions } from '../../../src/load/duckdb/run-memory.js';
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
});
