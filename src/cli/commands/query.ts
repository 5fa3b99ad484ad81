/** `etl query "<sql>"`: one read statement over the warehouse, in the sandbox, up to a row limit. */
import {
  DEFAULT_QUERY_ROW_LIMIT,
  queryTimeZoneSetting,
  runQuery,
} from '../../load/duckdb/read-only-query.js';
import { withReadOnlyTarget } from '../../load/read-only-target.js';
import { UsageError } from '../../shared/errors.js';
import { formatTable } from '../format-table.js';
import type { Output } from '../output.js';
import { parseTargetSpec } from '../target-spec.js';

/** A limit this large would hold about that many rows in memory at once: results beyond are paged by SQL. */
const MAX_QUERY_ROW_LIMIT = 1_000_000;

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_QUERY_ROW_LIMIT;
  const limit = /^[1-9]\d*$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit <= MAX_QUERY_ROW_LIMIT))
    throw new UsageError('USAGE_ERROR', `--limit takes a row count from 1 to ${MAX_QUERY_ROW_LIMIT}`, {
      reason: 'invalid-limit',
    });
  return limit;
}

export async function queryCommand(
  sql: string,
  flags: { target?: string; limit?: string; timeZone?: string },
  output: Output,
): Promise<number> {
  const target = parseTargetSpec(flags.target);
  const limit = parseLimit(flags.limit);
  const settings = queryTimeZoneSetting(flags.timeZone ?? 'UTC');
  const result = await withReadOnlyTarget(target, (connection) => runQuery(connection, sql, limit), {
    settings,
  });
  const note = result.truncated
    ? `\nonly the first ${limit} rows are shown: raise --limit (up to ${MAX_QUERY_ROW_LIMIT}) or page with LIMIT/OFFSET`
    : '';
  output.success(
    { columns: result.columns, rows: result.rows, truncated: result.truncated, limit },
    `${formatTable(result.columns, result.rows)}${note}`,
  );
  return 0;
}
