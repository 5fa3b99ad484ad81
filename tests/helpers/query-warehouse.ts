/** Reads warehouse rows in-process after a CLI run (faster than one `etl query` process per assertion). */
import { runQuery, withReadOnlyWarehouse } from '../../src/load/duckdb/read-only-query.js';
import { openDatasetReadOnly } from '../../src/load/parquet/dataset-reader.js';

export async function queryRows(warehousePath: string, sql: string): Promise<Record<string, unknown>[]> {
  return withReadOnlyWarehouse(warehousePath, async (connection) => (await runQuery(connection, sql)).rows);
}

/** Rows of `sql` read in-process from a DuckDB warehouse or a Parquet dataset. */
export async function rowsOf(
  kind: 'duckdb' | 'parquet',
  path: string,
  sql: string,
): Promise<Record<string, unknown>[]> {
  if (kind === 'duckdb') return queryRows(path, sql);
  const dataset = await openDatasetReadOnly(path);
  try {
    return (await runQuery(dataset.connection, sql)).rows;
  } finally {
    dataset.close();
  }
}
