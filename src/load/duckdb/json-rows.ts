/**
 * Reads a query's rows through one JSON text built by DuckDB (`to_json(list(row))`): the node API
 * converts each value on the main thread for microseconds apiece, so a ledger read of thousands of
 * rows is cheaper as one string and `JSON.parse`. Columns must be text, booleans or small numbers
 * (a JSON column is embedded as JSON, so select it `::VARCHAR` to keep its text).
 */
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';

export async function readJsonRows(
  connection: DuckDBConnection,
  select: string,
  params: DuckDBValue[] = [],
): Promise<Record<string, unknown>[]> {
  const reader = await connection.runAndReadAll(`SELECT to_json(list(r)) FROM (${select}) r`, params);
  const text = reader.getRows()[0]?.[0];
  // An empty input aggregates to NULL.
  return text === null || text === undefined ? [] : (JSON.parse(String(text)) as Record<string, unknown>[]);
}
