import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWarehouse } from '../../../src/load/duckdb/duckdb-warehouse.js';
import { tempDir } from '../../helpers/run-cli.js';

async function settings(path: string, mode: 'write' | 'read'): Promise<Record<string, string>> {
  const opened = await openWarehouse(path, mode);
  try {
    const reader = await opened.connection.runAndReadAll(
      "SELECT current_setting('memory_limit') AS memory, current_setting('checkpoint_threshold') AS checkpoint",
    );
    const row = reader.getRowObjects()[0]!;
    return { memory: String(row.memory), checkpoint: String(row.checkpoint) };
  } finally {
    opened.close();
  }
}

describe('DuckDB settings of a writing run', () => {
  it('bound the buffer pool (64 MB) and raise the WAL checkpoint threshold; a read-only open keeps the defaults', async () => {
    const path = join(tempDir(), 'w.duckdb');
    expect(await settings(path, 'write')).toEqual({ memory: '61.0 MiB', checkpoint: '256.0 MiB' });
    expect((await settings(path, 'read')).checkpoint).toBe('16.0 MiB');
  });
});
