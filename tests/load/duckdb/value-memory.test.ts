import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWarehouse } from '../../../src/load/duckdb/duckdb-warehouse.js';
import { WRITER_MEMORY_BYTES } from '../../../src/load/duckdb/run-memory.js';
import {
  largestRowValueBytes,
  largestStoredValueBytes,
  memoryLimitBytes,
  ROW_BYTES,
  ROWS_IN_BASE,
} from '../../../src/load/duckdb/value-memory.js';
import { tempDir } from '../../helpers/run-cli.js';

const MiB = 1024 * 1024;

async function memoryLimit(path: string): Promise<string> {
  const opened = await openWarehouse(path, 'write');
  try {
    const reader = await opened.connection.runAndReadAll("SELECT current_setting('memory_limit')");
    return String(reader.getRows()[0]![0]);
  } finally {
    opened.close();
  }
}

describe('the DuckDB pool fits the largest value (source-read-limits/v1: sqliteValueBytes 134,217,728 bytes is one value a run admits)', () => {
  it('measures values in UTF-8 bytes across every row group', () => {
    expect(largestRowValueBytes([{ a: 'é'.repeat(10), n: 5 }], [{ b: 'x'.repeat(15) }, { c: null }])).toBe(
      20,
    );
    expect(largestRowValueBytes([], [{}])).toBe(0);
  });

  it('a writer reopening a warehouse that holds a large value sizes the pool from it', async () => {
    const path = join(tempDir(), 'w.duckdb');
    const opened = await openWarehouse(path, 'write');
    try {
      await opened.fitValue(2 * MiB);
      await opened.connection.run('CREATE TABLE big (v VARCHAR)');
      await opened.connection.run(`INSERT INTO big SELECT repeat('x', ${2 * MiB})`);
      await opened.connection.run('CHECKPOINT');
      expect(await largestStoredValueBytes(opened.connection)).toBe(2 * MiB);
    } finally {
      opened.close();
    }
    const expected = memoryLimitBytes(WRITER_MEMORY_BYTES, 2 * MiB);
    expect(await memoryLimit(path)).toBe(`${(expected / MiB).toFixed(1)} MiB`);
  });

  it('adds a per-row allowance only past the rows the base already holds', () => {
    const base = memoryLimitBytes(WRITER_MEMORY_BYTES, MiB);
    expect(memoryLimitBytes(WRITER_MEMORY_BYTES, MiB, 0)).toBe(base);
    expect(memoryLimitBytes(WRITER_MEMORY_BYTES, MiB, ROWS_IN_BASE)).toBe(base);
    expect(memoryLimitBytes(WRITER_MEMORY_BYTES, MiB, ROWS_IN_BASE + 1000)).toBe(base + 1000 * ROW_BYTES);
    // Replacing a 1M-message session deletes and appends about 4M rows: the 256 MB that passed.
    expect(memoryLimitBytes(WRITER_MEMORY_BYTES, 0, 4_000_000)).toBeGreaterThanOrEqual(256_000_000);
  });

  it('a writer fitting rows raises the pool, never lowers it, and records no rows', async () => {
    const path = join(tempDir(), 'rows.duckdb');
    const opened = await openWarehouse(path, 'write');
    const setting = async (): Promise<string> => {
      const reader = await opened.connection.runAndReadAll("SELECT current_setting('memory_limit')");
      return String(reader.getRows()[0]![0]);
    };
    const inMiB = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MiB`;
    try {
      await opened.fitRows(ROWS_IN_BASE + 2 * MiB);
      expect(await setting()).toBe(inMiB(memoryLimitBytes(WRITER_MEMORY_BYTES, 0, ROWS_IN_BASE + 2 * MiB)));
      await opened.fitRows(10);
      expect(await setting()).toBe(inMiB(memoryLimitBytes(WRITER_MEMORY_BYTES, 0, ROWS_IN_BASE + 2 * MiB)));
      await opened.fitValue(MiB);
      expect(await setting()).toBe(inMiB(memoryLimitBytes(WRITER_MEMORY_BYTES, MiB, ROWS_IN_BASE + 2 * MiB)));
      const meta = await opened.connection.runAndReadAll(
        "SELECT value FROM etl_meta WHERE key = 'largest_value_bytes'",
      );
      expect(String(meta.getRows()[0]![0])).toBe(String(MiB));
    } finally {
      opened.close();
    }
    expect(await memoryLimit(path)).toBe(inMiB(memoryLimitBytes(WRITER_MEMORY_BYTES, MiB)));
  });
});
