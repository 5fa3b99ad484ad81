/** `etl query "<sql>"`: read-only SQL over the warehouse. */
import { runQuery, setQueryTimeZone } from '../../load/duckdb/read-only-query.js';
import { withReadOnlyTarget } from '../../load/read-only-target.js';
import { formatTable } from '../format-table.js';
import type { Output } from '../output.js';
import { parseTargetSpec } from '../target-spec.js';

export async function queryCommand(
  sql: string,
  flags: { target?: string; timeZone?: string },
  output: Output,
): Promise<number> {
  const target = parseTargetSpec(flags.target);
  const result = await withReadOnlyTarget(target, async (connection) => {
    await setQueryTimeZone(connection, flags.timeZone ?? 'UTC');
    return runQuery(connection, sql);
  });
  output.success({ columns: result.columns, rows: result.rows }, formatTable(result.columns, result.rows));
  return 0;
}
