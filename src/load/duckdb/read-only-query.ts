/** Read-only SQL over the warehouse for `etl query`, `etl status` and `etl verify`. */
import type { DuckDBConnection, DuckDBResultReader } from '@duckdb/node-api';
import { UsageError } from '../../shared/errors.js';
import { DuckDBTypeId } from './duckdb-api.js';
import { openWarehouse } from './duckdb-warehouse.js';

export interface QueryResult {
  columns: string[];
  rows: Record<string, unknown>[];
}

export async function withReadOnlyWarehouse<T>(
  path: string,
  work: (connection: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const warehouse = await openWarehouse(path, 'read');
  try {
    return await work(warehouse.connection);
  } finally {
    warehouse.close();
  }
}

const WIDE_INTEGERS = new Set([
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
]);

/** JSON-safe rows; wide integers (counts, sums) are numbers when exact, strings only beyond 2^53. */
function jsonRows(reader: DuckDBResultReader): Record<string, unknown>[] {
  const rows = reader.getRowObjectsJson() as Record<string, unknown>[];
  const wide = reader.columnNames().filter((_, index) => WIDE_INTEGERS.has(reader.columnType(index).typeId));
  for (const row of rows) {
    for (const name of wide) {
      const value = row[name];
      if (typeof value === 'string' && Number.isSafeInteger(Number(value))) row[name] = Number(value);
    }
  }
  return rows;
}

const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * Sets the session time zone (IANA name; DuckDB's built-in ICU) so that casts to TIMESTAMPTZ and
 * zone-aware functions do not depend on the machine: `etl query` uses UTC unless asked otherwise.
 */
export async function setQueryTimeZone(connection: DuckDBConnection, zone: string): Promise<void> {
  try {
    if (!ZONE_NAME.test(zone)) throw new Error('not a zone name');
    await connection.run(`SET TimeZone = '${zone}'`);
  } catch {
    throw new UsageError(
      'USAGE_ERROR',
      `--time-zone ${JSON.stringify(zone.slice(0, 64))} is not a known time zone`,
      {
        reason: 'unknown-time-zone',
      },
    );
  }
}

export async function runQuery(connection: DuckDBConnection, sql: string): Promise<QueryResult> {
  try {
    const reader = await connection.runAndReadAll(sql);
    return { columns: reader.columnNames(), rows: jsonRows(reader) };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 300) : 'query failed';
    throw new UsageError('QUERY_FAILED', `The query failed: ${message}`, {});
  }
}
