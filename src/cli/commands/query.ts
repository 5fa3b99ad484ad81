/** `etl query "<sql>"`: one read statement over the warehouse, in the sandbox, up to a row limit, streamed. */
import {
  DEFAULT_QUERY_ROW_LIMIT,
  queryTimeZoneSetting,
  streamQuery,
} from '../../load/duckdb/read-only-query.js';
import { withReadOnlyTarget } from '../../load/read-only-target.js';
import { UsageError } from '../../shared/errors.js';
import { StreamedTable } from '../format-table.js';
import { type Output, stringifyJson } from '../output.js';
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
  let table: StreamedTable | null = null;
  let started = false;
  let held: { columns: readonly string[]; rows: Record<string, unknown>[] } | null = null;
  const write = (columns: readonly string[], rows: Record<string, unknown>[]): boolean => {
    const first = !started;
    started = true;
    if (output.json) {
      const head = first ? `{"columns":${stringifyJson(columns)},"rows":[` : ',';
      return output.stream(
        rows.length === 0 ? head : `${head}${rows.map((row) => stringifyJson(row)).join(',')}`,
      );
    }
    table ??= new StreamedTable(columns);
    return output.stream(table.page(rows));
  };
  // The first DEFAULT_QUERY_ROW_LIMIT rows are held, so a query failing early leaves stdout empty;
  // beyond them rows go out page by page and a result near the limit never sits in memory whole.
  const onPage = (columns: readonly string[], rows: Record<string, unknown>[]): boolean => {
    if (started) return write(columns, rows);
    held = held === null ? { columns, rows } : { columns, rows: held.rows.concat(rows) };
    if (held.rows.length < DEFAULT_QUERY_ROW_LIMIT) return true;
    const open = write(held.columns, held.rows);
    held = null;
    return open;
  };
  const result = await withReadOnlyTarget(
    target,
    (connection) => streamQuery(connection, sql, limit, onPage),
    {
      settings,
    },
  );
  const rest = held as { columns: readonly string[]; rows: Record<string, unknown>[] } | null;
  if (!started && rest !== null) write(rest.columns, rest.rows);
  const note = result.truncated
    ? `\nonly the first ${limit} rows are shown: raise --limit (up to ${MAX_QUERY_ROW_LIMIT}) or page with LIMIT/OFFSET`
    : '';
  if (output.json) output.stream(`],"truncated":${result.truncated},"limit":${limit},"diagnostics":[]}\n`);
  else output.stream(`${(table as StreamedTable | null)?.end() ?? '(0 rows)'}${note}\n`);
  return 0;
}
