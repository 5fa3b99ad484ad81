/**
 * The report's figures, read from the analyst views (and from the `usage` and `file_edits` tables
 * when the warehouse has them; otherwise from message token counts and `v_file_touches`). With an
 * imported price table, models are costed through `v_usage_cost`, one row per currency.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { runQuery } from '../duckdb/read-only-query.js';

type Row = Record<string, unknown>;

export interface ReportTables {
  usage: boolean;
  fileEdits: boolean;
  /** The warehouse has usage and an imported price table with rows: models are costed. */
  prices: boolean;
}

export interface ReportFigures {
  tables: ReportTables;
  totals: Row;
  activity: Row[];
  models: Row[];
  /** Per currency (NULL: usage rows no price covers); empty without a price table. */
  costs: Row[];
  files: Row[];
  workspaces: Row[];
  tools: Row[];
}

/** Rows of one ranking; the report says so when a ranking has more. */
export const RANKING_ROWS = 20;

/** Which optional base tables (or, in a Parquet dataset, views) the warehouse has. */
export async function reportTables(connection: DuckDBConnection): Promise<ReportTables> {
  const { rows } = await runQuery(
    connection,
    `SELECT DISTINCT table_name FROM information_schema.tables
      WHERE table_schema = 'main' AND table_name IN ('usage', 'file_edits')`,
  );
  const names = new Set(rows.map((r) => String(r.table_name)));
  const usage = names.has('usage');
  return { usage, fileEdits: names.has('file_edits'), prices: usage && (await hasPrices(connection)) };
}

async function hasPrices(connection: DuckDBConnection): Promise<boolean> {
  const { rows } = await runQuery(
    connection,
    `SELECT count(*) AS n FROM information_schema.tables
      WHERE table_schema = 'main' AND table_name IN ('model_prices', 'v_usage_cost')`,
  );
  if (Number(rows[0]?.n) !== 2) return false;
  const priced = await runQuery(connection, 'SELECT 1 AS one FROM model_prices LIMIT 1');
  return priced.rows.length > 0;
}

const TOTALS = `SELECT (SELECT count(*) FROM sessions) AS sessions,
  (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM tool_calls) AS tool_calls,
  (SELECT count(DISTINCT workspace) FROM v_sessions) AS workspaces,
  (SELECT min(created_at) FROM v_sessions) AS first_activity,
  (SELECT max(updated_at) FROM v_sessions) AS last_activity,
  (SELECT count(*) FROM messages WHERE timestamp_source = 'unknown') AS messages_unknown_time`;

const ACTIVITY = `SELECT CAST(day AS VARCHAR) AS day, sessions, messages, tool_calls
FROM v_daily_activity WHERE day IS NOT NULL ORDER BY day`;

const MODELS_FROM_MESSAGES = `SELECT model, 'messages' AS measurement, messages AS records, sessions,
  input_tokens, output_tokens, NULL AS cache_read_tokens, NULL AS cache_write_tokens
FROM v_model_usage
ORDER BY coalesce(input_tokens, 0) + coalesce(output_tokens, 0) DESC, messages DESC, model
LIMIT ${RANKING_ROWS + 1}`;

const MODELS_FROM_USAGE = `SELECT coalesce(model, '(model not stored)') AS model,
  coalesce(measurement, '(unflagged)') AS measurement, count(*) AS records,
  count(DISTINCT session_id) AS sessions, sum(input_tokens) AS input_tokens,
  sum(output_tokens) AS output_tokens, sum(cache_read_tokens) AS cache_read_tokens,
  sum(cache_write_tokens) AS cache_write_tokens
FROM usage GROUP BY ALL
ORDER BY coalesce(sum(input_tokens), 0) + coalesce(sum(output_tokens), 0) DESC, records DESC, model, measurement
LIMIT ${RANKING_ROWS + 1}`;

/** One row per model, measurement and currency: a NULL currency holds the usage no price covers. */
const MODELS_WITH_COST = `SELECT coalesce(model, '(model not stored)') AS model,
  coalesce(measurement, '(unflagged)') AS measurement, currency, count(*) AS records,
  count(DISTINCT session_id) AS sessions, sum(input_tokens) AS input_tokens,
  sum(output_tokens) AS output_tokens, sum(cache_read_tokens) AS cache_read_tokens,
  sum(cache_write_tokens) AS cache_write_tokens, sum(cost) AS cost
FROM v_usage_cost GROUP BY ALL
ORDER BY coalesce(sum(input_tokens), 0) + coalesce(sum(output_tokens), 0) DESC, records DESC, model, measurement,
  currency NULLS LAST
LIMIT ${RANKING_ROWS + 1}`;

/** Cost per currency over all usage (currencies are never added together), and the unpriced rows. */
const COST_TOTALS = `SELECT currency, count(*) AS records, sum(cost) AS cost
FROM v_usage_cost GROUP BY currency ORDER BY currency NULLS LAST`;

const FILES_FROM_TOUCHES = `SELECT file, count(*) AS count, count(DISTINCT session_id) AS sessions,
  NULL AS lines_added, NULL AS lines_removed
FROM v_file_touches GROUP BY file ORDER BY count DESC, file LIMIT ${RANKING_ROWS + 1}`;

const FILES_FROM_EDITS = `SELECT path AS file, count(*) AS count, count(DISTINCT session_id) AS sessions,
  sum(lines_added) AS lines_added, sum(lines_removed) AS lines_removed
FROM file_edits WHERE path IS NOT NULL GROUP BY path ORDER BY count DESC, file LIMIT ${RANKING_ROWS + 1}`;

const workspacesSql = (
  fileEdits: boolean,
): string => `SELECT w.workspace, w.sessions, w.messages, w.tool_calls,
  ${fileEdits ? 'e.edits' : 'NULL'} AS edits
FROM v_workspace_activity w
${
  fileEdits
    ? `LEFT JOIN (SELECT coalesce(workspace_path, '(no workspace)') AS workspace, count(*) AS edits
    FROM file_edits GROUP BY ALL) e USING (workspace)`
    : ''
}
ORDER BY w.sessions DESC, w.messages DESC, w.workspace LIMIT ${RANKING_ROWS + 1}`;

const TOOLS = `SELECT tool, count(*) AS calls, count(*) FILTER (WHERE failed) AS failed,
  count(DISTINCT session_id) AS sessions
FROM v_tool_calls GROUP BY tool ORDER BY calls DESC, tool LIMIT ${RANKING_ROWS + 1}`;

const modelsSql = (tables: ReportTables): string =>
  tables.prices ? MODELS_WITH_COST : tables.usage ? MODELS_FROM_USAGE : MODELS_FROM_MESSAGES;

/** Every figure of the overview; rankings hold up to RANKING_ROWS + 1 rows (the extra one means "more"). */
export async function readFigures(connection: DuckDBConnection): Promise<ReportFigures> {
  const tables = await reportTables(connection);
  const rows = async (sql: string, limit = RANKING_ROWS + 1): Promise<Row[]> =>
    (await runQuery(connection, sql, limit)).rows;
  return {
    tables,
    totals: (await rows(TOTALS))[0] ?? {},
    // One row per day: about 3,650 for ten years, bucketed to weeks or months when drawn.
    activity: await rows(ACTIVITY, 100_000),
    models: await rows(modelsSql(tables)),
    costs: tables.prices ? await rows(COST_TOTALS, 1_000) : [],
    files: await rows(tables.fileEdits ? FILES_FROM_EDITS : FILES_FROM_TOUCHES),
    workspaces: await rows(workspacesSql(tables.fileEdits)),
    tools: await rows(TOOLS),
  };
}
