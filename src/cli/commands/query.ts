/** `etl query "<sql>"`: read-only SQL over the warehouse. */
import { runQuery, withReadOnlyWarehouse } from '../../load/duckdb/read-only-query.js';
import { UsageError } from '../../shared/errors.js';
import { formatTable } from '../format-table.js';
import type { Output } from '../output.js';
import { parseTargetSpec } from '../target-spec.js';

export async function queryCommand(sql: string, flags: { target?: string }, output: Output): Promise<number> {
  const target = parseTargetSpec(flags.target);
  if (target.kind !== 'duckdb')
    throw new UsageError('TARGET_UNSUPPORTED', 'etl query reads a DuckDB warehouse', {});
  const result = await withReadOnlyWarehouse(target.path, (connection) => runQuery(connection, sql));
  output.success({ columns: result.columns, rows: result.rows }, formatTable(result.columns, result.rows));
  return 0;
}
