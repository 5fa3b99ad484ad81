/**
 * Reads a query's rows as one JSON text built by DuckDB (`to_json(list(row))`): converting each
 * value through the node API costs more. Columns must be text, booleans or small numbers; select a
 * JSON column `::VARCHAR` to keep its text.
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
