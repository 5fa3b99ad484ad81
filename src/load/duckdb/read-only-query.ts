/**
 * Read-only SQL over the warehouse for `etl query`, `etl status` and `etl verify`: one read
 * statement, in the sandbox, whose result is read in chunks up to a row limit, never whole.
 */
import type {
  DuckDBConnection,
  DuckDBPreparedStatement,
  DuckDBResult,
  DuckDBResultReader as DuckDBResultReaderType,
  DuckDBValue,
} from '@duckdb/node-api';
import type { DetailsOf } from '../../shared/diagnostic-catalogue.js';
import { UsageError } from '../../shared/errors.js';
import {
  DuckDBArrayValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBResultReader,
  DuckDBStructValue,
  DuckDBTimestampTZValue,
  DuckDBTypeId,
  StatementType,
} from './duckdb-api.js';
import { openWarehouse } from './duckdb-warehouse.js';
import { engineErrorLine, isSandboxRefusal } from './engine-error-text.js';
import { instantText } from './instant-text.js';
import { lockDown, type Sandbox } from './query-sandbox.js';

/** Rows `etl query` prints unless `--limit` says otherwise. */
export const DEFAULT_QUERY_ROW_LIMIT = 10_000;

export interface QueryResult {
  columns: string[];
  rows: Record<string, unknown>[];
  /** The result had more rows than the limit; only the first `limit` are in `rows`. */
  truncated: boolean;
}

export async function withReadOnlyWarehouse<T>(
  path: string,
  work: (connection: DuckDBConnection) => Promise<T>,
  sandbox: Sandbox = {},
): Promise<T> {
  const warehouse = await openWarehouse(path, 'read');
  try {
    await lockDown(
      warehouse.connection,
      sandbox.writableDirectories ?? [],
      sandbox.settings,
      sandbox.prepare,
    );
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

/**
 * JSON-safe rows; wide integers (counts, sums) are numbers when exact, strings only beyond 2^53;
 * instants are written in the session time zone `zone`.
 */
function jsonRows(reader: DuckDBResultReaderType, limit: number, zone: string): Record<string, unknown>[] {
  const rows = (reader.getRowObjectsJson() as Record<string, unknown>[]).slice(0, limit);
  const names = reader.columnNames();
  const typeOf = (index: number): DuckDBTypeId => reader.columnType(index).typeId;
  const wide = names.filter((_, index) => WIDE_INTEGERS.has(typeOf(index)));
  const instants = names.flatMap((name, index) =>
    reader.columnType(index).toString().includes('TIMESTAMP WITH TIME ZONE') ? [[name, index] as const] : [],
  );
  rows.forEach((row, rowIndex) => {
    for (const name of wide) {
      const value = row[name];
      if (typeof value === 'string' && Number.isSafeInteger(Number(value))) row[name] = Number(value);
    }
    for (const [name, index] of instants)
      row[name] = withInstantText(reader.value(index, rowIndex), row[name], zone);
  });
  return rows;
}

/** `json` (the node API's rendering of `value`) with every instant in it, nested ones too, written in `zone`. */
function withInstantText(value: DuckDBValue, json: unknown, zone: string): unknown {
  if (value instanceof DuckDBTimestampTZValue) return instantText(value.micros, zone) ?? json;
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue)
    return (json as unknown[]).map((item, i) => withInstantText(value.items[i]!, item, zone));
  if (value instanceof DuckDBMapValue)
    return (json as { key: unknown; value: unknown }[]).map((entry, i) => ({
      key: withInstantText(value.entries[i]!.key, entry.key, zone),
      value: withInstantText(value.entries[i]!.value, entry.value, zone),
    }));
  if (value instanceof DuckDBStructValue) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(json as Record<string, unknown>))
      out[key] = withInstantText(value.entries[key]!, item, zone);
    return out;
  }
  return json;
}

async function sessionTimeZone(connection: DuckDBConnection): Promise<string> {
  const reader = await connection.runAndReadAll("SELECT current_setting('TimeZone')");
  return String(reader.getRows()[0]?.[0] ?? 'UTC');
}

const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * The session time zone setting (an IANA name, read by DuckDB's built-in ICU) so that casts to
 * TIMESTAMPTZ and zone-aware functions do not depend on the machine: `etl query` uses UTC by default.
 */
export function queryTimeZoneSetting(zone: string): Record<string, string> {
  let known = ZONE_NAME.test(zone);
  if (known) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
    } catch {
      known = false;
    }
  }
  if (!known)
    throw new UsageError(
      'USAGE_ERROR',
      `--time-zone ${JSON.stringify(zone.slice(0, 64))} is not a known time zone`,
      {
        reason: 'unknown-time-zone',
      },
    );
  return { TimeZone: zone };
}

/** Statements that only read: SELECT (with DESCRIBE, SHOW, SUMMARIZE, FROM …) and EXPLAIN. */
const READ_STATEMENTS: ReadonlySet<StatementType> = new Set([StatementType.SELECT, StatementType.EXPLAIN]);

type QueryFailure = DetailsOf<'QUERY_FAILED'>['reason'];

function queryFailed(reason: QueryFailure, message: string): UsageError<'QUERY_FAILED'> {
  return new UsageError('QUERY_FAILED', message, { reason });
}

function asQueryFailure(error: unknown): UsageError {
  if (error instanceof UsageError) return error;
  if (isSandboxRefusal(error))
    return queryFailed(
      'outside-warehouse',
      'The query reads or writes a file, URL or setting outside the warehouse, which is closed',
    );
  return queryFailed('failed', `The query failed: ${engineErrorLine(error)}`);
}

/** Prepares `sql` when it is exactly one read statement. */
async function prepareRead(connection: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
  const statements = await connection.extractStatements(sql);
  if (statements.count !== 1)
    throw queryFailed('not-one-statement', `etl query runs exactly one statement (got ${statements.count})`);
  const prepared = await statements.prepare(0);
  if (!READ_STATEMENTS.has(prepared.statementType))
    throw queryFailed('not-a-read-statement', 'etl query runs read statements only (SELECT, EXPLAIN)');
  return prepared;
}

/** Runs one read statement and reads at most `limit` rows of its result (and whether there were more). */
export async function runQuery(
  connection: DuckDBConnection,
  sql: string,
  limit: number = DEFAULT_QUERY_ROW_LIMIT,
): Promise<QueryResult> {
  let reader: DuckDBResultReaderType;
  const zone = await sessionTimeZone(connection);
  try {
    reader = await (await prepareRead(connection, sql)).streamAndReadUntil(limit + 1);
  } catch (error) {
    throw asQueryFailure(error);
  }
  return {
    columns: reader.columnNames(),
    rows: jsonRows(reader, limit, zone),
    truncated: reader.currentRowCount > limit,
  };
}

/** Rows converted and handed over per page, so memory holds one page whatever the limit. */
export const QUERY_PAGE_ROWS = 2048;

export interface StreamedQuery {
  columns: string[];
  rowCount: number;
  truncated: boolean;
}

/**
 * Runs one read statement and hands its first `limit` rows to `onPage`, page by page (at least one
 * call, with no rows for an empty result); a page is released before the next is read. `onPage`
 * returning false stops the reading (nobody reads the output any more).
 */
export async function streamQuery(
  connection: DuckDBConnection,
  sql: string,
  limit: number,
  onPage: (columns: readonly string[], rows: Record<string, unknown>[]) => boolean,
): Promise<StreamedQuery> {
  const zone = await sessionTimeZone(connection);
  let result: DuckDBResult;
  try {
    result = await (await prepareRead(connection, sql)).stream();
  } catch (error) {
    throw asQueryFailure(error);
  }
  const columns = result.columnNames();
  let rowCount = 0;
  for (let first = true; ; first = false) {
    // A fresh reader per page: the previous page's chunks are dropped with their reader.
    const reader = new DuckDBResultReader(result);
    try {
      await reader.readUntil(Math.min(QUERY_PAGE_ROWS, limit + 1 - rowCount));
    } catch (error) {
      throw asQueryFailure(error);
    }
    const room = limit - rowCount;
    const rows = jsonRows(reader, room, zone);
    const more = rows.length > 0 || first ? onPage(columns, rows) : true;
    rowCount += rows.length;
    if (!more) return { columns, rowCount, truncated: false };
    if (reader.currentRowCount > room) return { columns, rowCount, truncated: true };
    if (reader.done || reader.currentRowCount === 0) return { columns, rowCount, truncated: false };
  }
}
