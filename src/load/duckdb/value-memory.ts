/**
 * Appending, committing or checkpointing one string value pins about two pool blocks of its size,
 * so each bounded DuckDB instance gets its base limit plus room for the largest value it handles.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from './sql-string.js';

/** Blocks of the largest value's size an instance may need pinned at once, with a margin. */
const VALUE_COPIES = 3;

/**
 * Rows one transaction may delete and append within the base limit: a full batch (50,000 rows
 * and their provenance, replaced) stays under it, so ordinary runs keep the base.
 */
export const ROWS_IN_BASE = 200_000;

/**
 * Pool bytes per row past ROWS_IN_BASE. Replacing a 1M-message session (about 4M rows deleted
 * and appended) ran out of memory at 64 MB and passed at 256 MB; this gives it about 307 MB.
 */
export const ROW_BYTES = 64;

/**
 * The memory limit for an instance whose base limit is `baseBytes`, whose largest value is
 * `valueBytes` and whose transaction deletes and appends `rows` rows.
 */
export function memoryLimitBytes(baseBytes: number, valueBytes: number, rows = 0): number {
  return baseBytes + VALUE_COPIES * Math.max(0, valueBytes) + ROW_BYTES * Math.max(0, rows - ROWS_IN_BASE);
}

/** A DuckDB `memory_limit` setting for a byte count, in whole KiB. */
export function memoryLimitSetting(bytes: number): string {
  return `${Math.ceil(bytes / 1024)}KiB`;
}

/** UTF-8 bytes of the largest string among the rows' values (DuckDB stores VARCHAR and JSON as UTF-8). */
export function largestRowValueBytes(...tables: ReadonlyArray<readonly object[]>): number {
  let largest = 0;
  for (const rows of tables) {
    for (const row of rows) {
      for (const value of Object.values(row)) {
        // A string of n UTF-16 units takes at most 3n UTF-8 bytes, so only candidates are measured.
        if (typeof value === 'string' && value.length * 3 > largest) {
          largest = Math.max(largest, Buffer.byteLength(value, 'utf8'));
        }
      }
    }
  }
  return largest;
}

/**
 * The largest string stored in the attached database's tables, from the segment statistics DuckDB
 * keeps per column ("Max String Length"), so no value is read: cheap on every writing run's open.
 */
export async function largestStoredValueBytes(connection: DuckDBConnection): Promise<number> {
  const tables = await connection.runAndReadAll(
    "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'",
  );
  let largest = 0;
  for (const [name] of tables.getRows()) {
    const reader = await connection.runAndReadAll(
      `SELECT max(TRY_CAST(regexp_extract(stats, 'Max String Length: (\\d+)', 1) AS BIGINT)) AS n
         FROM pragma_storage_info(${sqlString(String(name))}) WHERE segment_type = 'VARCHAR'`,
    );
    largest = Math.max(largest, Number(reader.getRowObjects()[0]?.n ?? 0));
  }
  return largest;
}

/** Sets the connection's instance limit to fit `valueBytes` and `rows` over `baseBytes`. */
export async function fitMemoryLimit(
  connection: DuckDBConnection,
  baseBytes: number,
  valueBytes: number,
  rows = 0,
): Promise<number> {
  const bytes = memoryLimitBytes(baseBytes, valueBytes, rows);
  await connection.run(`SET memory_limit = ${sqlString(memoryLimitSetting(bytes))}`);
  return bytes;
}
