/**
 * The sessions a report lists (the most recently updated first, up to a cap) and, a bounded batch at
 * a time, their messages with thinking and tool calls, so the writer never holds them all.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { runQuery } from '../duckdb/read-only-query.js';
import { sqlString } from '../duckdb/sql-string.js';

type Row = Record<string, unknown>;

/** Characters of a tool call's params or result embedded in the page; the rest is counted, not shown. */
export const TOOL_TEXT_CHARS = 4000;
/** Rows read for one session's messages or tool calls: beyond any session a source holds. */
const SESSION_ROWS = 10_000_000;

export interface SessionList {
  /** Sessions in the warehouse. */
  total: number;
  rows: Row[];
}

export async function listSessions(
  connection: DuckDBConnection,
  maxSessions: number,
  usage: boolean,
): Promise<SessionList> {
  const tokens = usage
    ? `LEFT JOIN (SELECT session_id, sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens
        FROM usage GROUP BY session_id) u USING (session_id)`
    : '';
  const [count] = (await runQuery(connection, 'SELECT count(*) AS n FROM v_sessions')).rows;
  const { rows } = await runQuery(
    connection,
    `SELECT s.session_id, s.title, s.workspace, CAST(s.created_at AS VARCHAR) AS created_at,
      CAST(s.updated_at AS VARCHAR) AS updated_at, s.message_count, s.tool_call_count,
      ${usage ? 'u.input_tokens, u.output_tokens' : 's.total_input_tokens AS input_tokens, s.total_output_tokens AS output_tokens'},
      s.models, s.fidelity, s.resolved_source
    FROM v_sessions s ${tokens}
    ORDER BY s.updated_at DESC NULLS LAST, s.created_at DESC NULLS LAST, s.session_id
    LIMIT ${maxSessions}`,
    maxSessions,
  );
  return { total: Number(count?.n ?? 0), rows };
}

export interface ToolText {
  text: string;
  /** Characters of the stored value not embedded (0 when it is whole). */
  omitted: number;
}

export function capToolText(value: unknown): ToolText | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const chars = Array.from(text);
  if (chars.length <= TOOL_TEXT_CHARS) return { text, omitted: 0 };
  return { text: chars.slice(0, TOOL_TEXT_CHARS).join(''), omitted: chars.length - TOOL_TEXT_CHARS };
}

export interface SessionDetail {
  messages: Row[];
}

/** Sessions read per query: at most this many, holding at most about BATCH_MESSAGES messages. */
const BATCH_SESSIONS = 100;
const BATCH_MESSAGES = 20_000;

/** Consecutive groups of listed sessions, each read with one query per table. */
export function sessionBatches(rows: readonly Row[]): Row[][] {
  const batches: Row[][] = [];
  let current: Row[] = [];
  let messages = 0;
  for (const row of rows) {
    const count = Number(row.message_count ?? 0);
    if (current.length > 0 && (current.length >= BATCH_SESSIONS || messages + count > BATCH_MESSAGES)) {
      batches.push(current);
      current = [];
      messages = 0;
    }
    current.push(row);
    messages += count;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** Sessions' messages in display order, each with its tool calls; message text and thinking whole. */
export async function readSessions(
  connection: DuckDBConnection,
  sessionIds: readonly string[],
): Promise<Map<string, SessionDetail>> {
  const ids = sessionIds.map(sqlString).join(', ');
  const details = new Map<string, SessionDetail>(sessionIds.map((id) => [id, { messages: [] }]));
  if (sessionIds.length === 0) return details;
  const calls = await runQuery(
    connection,
    `SELECT session_id, message_id, tool_ordinal, name, status, params, result, error, user_decision
    FROM tool_calls WHERE session_id IN (${ids}) ORDER BY session_id, message_id, tool_ordinal`,
    SESSION_ROWS,
  );
  const byMessage = new Map<string, Row[]>();
  for (const call of calls.rows) {
    const key = JSON.stringify([call.session_id, call.message_id]);
    const list = byMessage.get(key) ?? [];
    list.push({
      name: call.name,
      status: call.status,
      decision: call.user_decision,
      error: call.error,
      params: capToolText(call.params),
      result: capToolText(call.result),
    });
    byMessage.set(key, list);
  }
  const messages = await runQuery(
    connection,
    `SELECT session_id, message_id, ordinal, role, content, thinking, model,
      CASE WHEN timestamp_source = 'unknown' THEN NULL ELSE CAST(timestamp AS VARCHAR) END AS timestamp,
      input_tokens, output_tokens, on_active_branch, is_sidechain, is_corrupted
    FROM messages WHERE session_id IN (${ids}) ORDER BY session_id, ordinal`,
    SESSION_ROWS,
  );
  for (const m of messages.rows)
    details.get(String(m.session_id))?.messages.push({
      role: m.role,
      content: m.content,
      thinking: m.thinking,
      model: m.model,
      timestamp: m.timestamp,
      input_tokens: m.input_tokens,
      output_tokens: m.output_tokens,
      off_branch: m.on_active_branch !== true,
      sidechain: m.is_sidechain === true,
      corrupted: m.is_corrupted === true,
      tools: byMessage.get(JSON.stringify([m.session_id, m.message_id])) ?? [],
    });
  return details;
}
