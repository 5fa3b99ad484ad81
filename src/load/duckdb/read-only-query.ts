/** Read-only SQL over the warehouse for `etl query`, `etl status` and `etl verify`. */
import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../../shared/errors.js';
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

export async function runQuery(connection: DuckDBConnection, sql: string): Promise<QueryResult> {
  try {
    const reader = await connection.runAndReadAll(sql);
    return { columns: reader.columnNames(), rows: reader.getRowObjectsJson() as Record<string, unknown>[] };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 300) : 'query failed';
    throw new UsageError('QUERY_FAILED', `The query failed: ${message}`, {});
  }
}
