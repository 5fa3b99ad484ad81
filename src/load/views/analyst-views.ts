/**
 * Stable analyst views over the warehouse tables. The SQL only names the base tables, so the same
 * views work in the DuckDB warehouse and over the Parquet dataset (where the tables are views).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { USAGE_VIEWS } from './usage-views.js';

export interface AnalystView {
  name: string;
  description: string;
  select: string;
}

/** The UTC day of an instant, whatever the session time zone (`etl query --time-zone`). */
const DAY = (ts: string): string => `CAST(timezone('UTC', ${ts}) AS DATE)`;
/**
 * The base tables keep the contract's placeholders (the epoch, with source `unknown` or
 * `epoch-unknown`); every view shows such a time as NULL, so no 1970 day or 54-year span appears.
 */
const MESSAGE_TIME = (m: string): string =>
  `CASE WHEN ${m}.timestamp_source = 'unknown' THEN NULL ELSE ${m}.timestamp END`;
const SESSION_TIME = (s: string, column: 'created_at' | 'updated_at'): string =>
  `CASE WHEN ${s}.${column}_source = 'epoch-unknown' THEN NULL ELSE ${s}.${column} END`;
const NO_WORKSPACE = `'(no workspace)'`;

export const ANALYST_VIEWS: readonly AnalystView[] = [
  {
    name: 'v_sessions',
    description: 'One row per session: workspace, title, times, message and token counts, fidelity.',
    select: `SELECT s.session_id, s.archive_key, s.title, coalesce(s.workspace_path, ${NO_WORKSPACE}) AS workspace,
  ${SESSION_TIME('s', 'created_at')} AS created_at, ${SESSION_TIME('s', 'updated_at')} AS updated_at,
  CASE WHEN s.updated_at >= s.created_at THEN date_diff('second', ${SESSION_TIME('s', 'created_at')},
    ${SESSION_TIME('s', 'updated_at')}) END AS duration_seconds,
  s.message_count, coalesce(m.user_messages, 0) AS user_messages,
  coalesce(m.assistant_messages, 0) AS assistant_messages, s.tool_call_count,
  s.total_input_tokens, s.total_output_tokens, m.models, s.fidelity, s.resolution_state,
  s.resolved_source, s.view_digest
FROM sessions s
LEFT JOIN (
  SELECT session_id, count(*) FILTER (WHERE role = 'user') AS user_messages,
    count(*) FILTER (WHERE role = 'assistant') AS assistant_messages,
    list_sort(list_distinct(list(model) FILTER (WHERE model IS NOT NULL))) AS models
  FROM messages GROUP BY session_id
) m USING (session_id)`,
  },
  {
    name: 'v_active_messages',
    description: 'Messages on the active conversation branch, in display order, with their session context.',
    select: `SELECT m.session_id, s.title, coalesce(s.workspace_path, ${NO_WORKSPACE}) AS workspace,
  row_number() OVER (PARTITION BY m.session_id ORDER BY m.ordinal) - 1 AS position,
  m.message_id, m.archive_key, m.role, m.content, m.thinking, m.model, ${MESSAGE_TIME('m')} AS timestamp,
  m.timestamp_source,
  m.input_tokens, m.output_tokens, m.duration_ms, m.is_corrupted,
  (SELECT count(*) FROM tool_calls t WHERE t.session_id = m.session_id AND t.message_id = m.message_id)
    AS tool_calls
FROM messages m JOIN sessions s USING (session_id)
WHERE m.on_active_branch AND NOT m.is_sidechain
ORDER BY m.session_id, m.ordinal`,
  },
  {
    name: 'v_tool_calls',
    description: 'Tool calls with the time, workspace and model of the message that made them.',
    select: `SELECT t.session_id, t.message_id, t.tool_ordinal, t.archive_key, t.name AS tool, t.status,
  t.error IS NOT NULL OR t.status = 'error' AS failed, t.user_decision, t.files, ${MESSAGE_TIME('m')} AS timestamp,
  m.model,
  coalesce(s.workspace_path, ${NO_WORKSPACE}) AS workspace
FROM tool_calls t
JOIN messages m USING (session_id, message_id)
JOIN sessions s USING (session_id)`,
  },
  {
    name: 'v_tool_usage',
    description: 'Tool calls per day, workspace, tool and status.',
    select: `SELECT ${DAY('timestamp')} AS day, workspace, tool, status, count(*) AS calls,
  count(DISTINCT session_id) AS sessions
FROM v_tool_calls GROUP BY ALL`,
  },
  {
    name: 'v_file_touches',
    description: 'One row per file a tool call touched (read, edited, searched).',
    select: `SELECT session_id, message_id, tool_ordinal, tool, status, timestamp, workspace, file
FROM v_tool_calls, unnest(from_json(files, '["VARCHAR"]')) AS f(file)`,
  },
  {
    name: 'v_daily_activity',
    description: 'Per day: sessions active, messages by role, tool calls and known tokens.',
    select: `SELECT ${DAY(MESSAGE_TIME('m'))} AS day, count(DISTINCT m.session_id) AS sessions,
  count(*) AS messages, count(*) FILTER (WHERE m.role = 'user') AS user_messages,
  count(*) FILTER (WHERE m.role = 'assistant') AS assistant_messages,
  coalesce(sum(t.calls), 0) AS tool_calls,
  sum(m.input_tokens) AS input_tokens, sum(m.output_tokens) AS output_tokens
FROM messages m
LEFT JOIN (SELECT session_id, message_id, count(*) AS calls FROM tool_calls GROUP BY ALL) t
  USING (session_id, message_id)
GROUP BY ALL`,
  },
  {
    name: 'v_model_usage',
    description: 'Per model: assistant messages, sessions, known token totals, first and last use.',
    select: `SELECT model, count(*) AS messages, count(DISTINCT session_id) AS sessions,
  sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
  count(input_tokens) AS messages_with_tokens, min(${MESSAGE_TIME('m')}) AS first_used,
  max(${MESSAGE_TIME('m')}) AS last_used
FROM messages m WHERE role = 'assistant' AND model IS NOT NULL GROUP BY model`,
  },
  {
    name: 'v_workspace_activity',
    description: 'Per workspace: sessions, messages, tool calls, first and last activity.',
    select: `SELECT workspace, count(*) AS sessions, sum(message_count) AS messages,
  sum(tool_call_count) AS tool_calls, min(created_at) AS first_session, max(updated_at) AS last_activity,
  count(*) FILTER (WHERE fidelity = 'partial') AS partial_sessions
FROM v_sessions GROUP BY workspace`,
  },
  {
    name: 'v_subagent_tree',
    description:
      'Every session under its tree root (a session no archived session is parent of), with depth, path and spawning Task call.',
    // A link cycle never reaches a root, and the path check stops any walk that would revisit a session.
    select: `WITH RECURSIVE tree(tree_root_session_id, session_id, depth, path) AS (
  SELECT s.session_id, s.session_id, 0, [s.session_id]
  FROM sessions s
  WHERE s.parent_session_id IS NULL
    OR NOT EXISTS (SELECT 1 FROM sessions p WHERE p.session_id = s.parent_session_id)
  UNION ALL
  SELECT t.tree_root_session_id, c.session_id, t.depth + 1, list_append(t.path, c.session_id)
  FROM tree t JOIN sessions c ON c.parent_session_id = t.session_id
  WHERE NOT list_contains(t.path, c.session_id)
)
SELECT t.tree_root_session_id, t.session_id, s.parent_session_id, t.depth, t.path, s.title,
  s.subagent_type, s.spawn_tool_call_id, k.name AS spawn_tool, k.tool_id AS spawn_tool_id,
  s.root_session_id AS stated_root_session_id, s.message_count, ${SESSION_TIME('s', 'created_at')} AS created_at
FROM tree t
JOIN sessions s USING (session_id)
LEFT JOIN (
  SELECT session_id, native_call_id, min(name) AS name, min(tool_id) AS tool_id
  FROM tool_calls WHERE native_call_id IS NOT NULL GROUP BY ALL
) k ON k.session_id = s.parent_session_id AND k.native_call_id = s.spawn_tool_call_id`,
  },
  // file-edits: code changes (`file_edits`) by file, model and session.
  {
    name: 'v_file_edits',
    description:
      'One row per file edit with the time, UTC day, model and position of the message that proposed it.',
    select: `SELECT e.session_id, e.message_id, m.ordinal AS message_ordinal, e.tool_ordinal, e.edit_ordinal,
  e.tool_name, e.path, coalesce(e.workspace_path, ${NO_WORKSPACE}) AS workspace, e.lines_added,
  e.lines_removed, e.user_decision, e.decision_source, m.model, ${MESSAGE_TIME('m')} AS timestamp,
  ${DAY(MESSAGE_TIME('m'))} AS day, e.diff, e.old_text, e.new_text, e.extensions
FROM file_edits e
JOIN messages m USING (session_id, message_id)`,
  },
  {
    name: 'v_top_changed_files',
    description: 'Per edited file and workspace: edits, known lines added and removed, sessions.',
    select: `SELECT path, workspace, count(*) AS edits, sum(lines_added) AS lines_added,
  sum(lines_removed) AS lines_removed, count(DISTINCT session_id) AS sessions,
  count(*) FILTER (WHERE user_decision = 'accepted') AS accepted
FROM v_file_edits WHERE path IS NOT NULL GROUP BY path, workspace`,
  },
  {
    name: 'v_edit_acceptance',
    description:
      'Per model: edits by user decision; acceptance_rate = accepted / (accepted + rejected), NULL when none was decided.',
    select: `SELECT model, count(*) AS edits,
  count(*) FILTER (WHERE user_decision = 'accepted') AS accepted,
  count(*) FILTER (WHERE user_decision = 'rejected') AS rejected,
  count(*) FILTER (WHERE user_decision = 'pending') AS pending,
  count(*) FILTER (WHERE user_decision = 'unknown') AS unknown,
  count(*) FILTER (WHERE user_decision = 'accepted') /
    nullif(count(*) FILTER (WHERE user_decision IN ('accepted', 'rejected')), 0) AS acceptance_rate
FROM v_file_edits GROUP BY model`,
  },
  {
    name: 'v_session_edits',
    description:
      'Per session with edits: edits, files, known lines added and removed, decisions, first and last edit.',
    select: `SELECT e.session_id, s.title, e.workspace, count(*) AS edits, count(DISTINCT e.path) AS files,
  sum(e.lines_added) AS lines_added, sum(e.lines_removed) AS lines_removed,
  count(*) FILTER (WHERE e.user_decision = 'accepted') AS accepted,
  count(*) FILTER (WHERE e.user_decision = 'rejected') AS rejected,
  min(e.timestamp) AS first_edit, max(e.timestamp) AS last_edit
FROM v_file_edits e JOIN sessions s USING (session_id) GROUP BY e.session_id, s.title, e.workspace`,
  },
  // end file-edits
  ...USAGE_VIEWS,
];

export function createViewSql(view: AnalystView): string {
  return `CREATE OR REPLACE VIEW ${view.name} AS\n${view.select}`;
}

/** Views are replaced on every open, so a newer build's view definitions always win. */
export async function createAnalystViews(connection: DuckDBConnection): Promise<void> {
  for (const view of ANALYST_VIEWS) await connection.run(createViewSql(view));
}
