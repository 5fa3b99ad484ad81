/**
 * Appending, committing or checkpointing one string value pins about two pool blocks of its size,
 * so each bounded DuckDB instance gets its base limit plus room for the largest value it handles.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from './sql-string.js';

/** Blocks of the largest value's size an instance may need pinned at once, with a margin. */
const VALUE_COPIES = 3;

/** The memory limit for an instance whose base limit is `baseBytes` and whose largest value is `valueBytes`. */
export function memoryLimitBytes(baseBytes: number, valueBytes: number): number {
  return baseBytes + VALUE_COPIES * Math.max(0, valueBytes);
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

/** Raises the connection's instance limit to fit `valueBytes` over `baseBytes`, when it does not already. */
export async function fitMemoryLimit(
  connection: DuckDBConnection,
  baseBytes: number,
  valueBytes: number,
): Promise<number> {
  const bytes = memoryLimitBytes(baseBytes, valueBytes);
  await connection.run(`SET memory_limit = ${sqlString(memoryLimitSetting(bytes))}`);
  return bytes;
}
