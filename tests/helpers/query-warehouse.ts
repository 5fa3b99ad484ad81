/** Reads warehouse rows in-process after a CLI run (faster than one `etl query` process per assertion). */
import { runQuery, withReadOnlyWarehouse } from '../../src/load/duckdb/read-only-query.js';

export async function queryRows(warehousePath: string, sql: string): Promise<Record<string, unknown>[]> {
  return withReadOnlyWarehouse(warehousePath, async (connection) => (await runQuery(connection, sql)).rows);
}
