/**
 * `archive-jsonl`: one line per session carrying the downstream key grammar, fidelity and
 * `view_digest`, so an archive can replace whole sessions and skip identical ones. Sessions are
 * read in keyset pages, so memory holds one page, never the warehouse.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { sessionsTable } from '../../../schemas/tables.js';
import { outputModes } from '../../shared/output-permissions.js';
import { messageArchiveKey, sessionArchiveKey, toolArchiveKey } from '../../transform/archive-keys.js';
import { FEED_COLUMNS, type FeedWindow, feedSql } from './change-feed.js';
import { exportQueryFailed } from './copy-export.js';
import type { ExportProgress } from './export-progress.js';
import type { AnyTable } from './export-tables.js';
import { jsonText, StoredJson } from './json-text.js';

export const ARCHIVE_LINE_FORMAT = 'cursor-etl.archive-session.v1';
/** A change feed line: the session line's members after the change, or only its keys for an absence. */
export const ARCHIVE_CHANGE_FORMAT = 'cursor-etl.archive-change.v1';
const PAGE_SESSIONS = 100;

type Row = Record<string, DuckDBValue>;

const iso = (value: unknown): string | null =>
  value === null ? null : new Date(Number(value)).toISOString();
const num = (value: unknown): number | null => (value === null ? null : Number(value));
const stored = (value: unknown): StoredJson | null => (value === null ? null : new StoredJson(String(value)));

async function rows(connection: DuckDBConnection, sql: string, params: DuckDBValue[]): Promise<Row[]> {
  return (await connection.runAndReadAll(sql, params)).getRowObjects();
}

function inList(count: number): string {
  return Array.from({ length: count }, (_, i) => `$${i + 1}`).join(', ');
}

function groupBySession(list: Row[]): Map<string, Row[]> {
  const map = new Map<string, Row[]>();
  for (const row of list) {
    const id = String(row.session_id);
    const group = map.get(id) ?? [];
    if (group.length === 0) map.set(id, group);
    group.push(row);
  }
  return map;
}

function toolJson(messageKey: string, t: Row): Record<string, unknown> {
  return {
    key: toolArchiveKey(messageKey, Number(t.tool_ordinal)),
    toolIndex: Number(t.tool_ordinal),
    toolId: t.tool_id,
    name: t.name,
    status: t.status,
    params: stored(t.params),
    result: t.result,
    error: t.error,
    files: stored(t.files),
    userDecision: t.user_decision,
  };
}

function messageJson(sessionId: string, m: Row, tools: Row[]): Record<string, unknown> {
  const key = messageArchiveKey(sessionId, String(m.message_id));
  return {
    key,
    messageId: m.message_id,
    ordinal: Number(m.ordinal),
    role: m.role,
    content: m.content,
    thinking: m.thinking,
    model: m.model,
    timestamp: iso(m.timestamp),
    timestampSource: m.timestamp_source,
    parentMessageId: m.parent_message_id,
    onActiveBranch: m.on_active_branch,
    isSidechain: m.is_sidechain,
    isCorrupted: m.is_corrupted,
    inputTokens: num(m.input_tokens),
    outputTokens: num(m.output_tokens),
    toolCalls: tools.map((t) => toolJson(key, t)),
  };
}

function sessionJson(s: Row, messages: Row[], tools: Row[]): Record<string, unknown> {
  const sessionId = String(s.session_id);
  const toolsByMessage = new Map<string, Row[]>();
  for (const t of tools)
    toolsByMessage.set(String(t.message_id), [...(toolsByMessage.get(String(t.message_id)) ?? []), t]);
  return {
    format: ARCHIVE_LINE_FORMAT,
    key: sessionArchiveKey(sessionId),
    sessionId,
    fidelity: s.fidelity,
    viewDigest: s.view_digest,
    resolutionState: s.resolution_state,
    title: s.title,
    workspacePath: s.workspace_path,
    createdAt: iso(s.created_at),
    updatedAt: iso(s.updated_at),
    messages: messages.map((m) => messageJson(sessionId, m, toolsByMessage.get(String(m.message_id)) ?? [])),
  };
}

const TS_COLUMNS: Record<string, string[]> = {
  sessions: ['created_at', 'updated_at'],
  messages: ['timestamp'],
};

function selectAll(table: string): string {
  const ts = TS_COLUMNS[table] ?? [];
  const replace = ts.length === 0 ? '' : ` REPLACE (${ts.map((c) => `epoch_ms(${c}) AS ${c}`).join(', ')})`;
  return `SELECT *${replace} FROM ${table}`;
}

/** A content table's rows of the given sessions, grouped by session. */
async function rowsOf(
  connection: DuckDBConnection,
  table: string,
  order: string,
  ids: string[],
): Promise<Map<string, Row[]>> {
  if (ids.length === 0) return new Map();
  return groupBySession(
    await rows(
      connection,
      `${selectAll(table)} WHERE session_id IN (${inList(ids.length)}) ORDER BY session_id, ${order}`,
      ids,
    ),
  );
}

/** The change feed's line: `origin` only when the warehouse has the column. */
function changeJson(s: Row, messages: Row[], tools: Row[]): Record<string, unknown> {
  const feed = {
    format: ARCHIVE_CHANGE_FORMAT,
    change: s.feed_change,
    changedInRun: s.feed_run,
    changeSeq: num(s.feed_seq),
    presentInSource: s.feed_present,
    ...('origin' in s ? { origin: s.origin } : {}),
  };
  const { format: _line, ...session } = sessionJson(s, messages, tools);
  if (s.feed_change !== 'absent') return { ...feed, ...session };
  return { ...feed, key: session.key, sessionId: session.sessionId, viewDigest: session.viewDigest };
}

async function nextPage(
  connection: DuckDBConnection,
  after: string | null,
  where: string | undefined,
  feed: FeedWindow | undefined,
): Promise<Row[]> {
  if (feed !== undefined) {
    const columns = `${FEED_COLUMNS}, s.* REPLACE (epoch_ms(s.created_at) AS created_at, epoch_ms(s.updated_at) AS updated_at)`;
    return rows(
      connection,
      `${feedSql(feed, columns)} WHERE ${after === null ? 'true' : 'f.session_id > $1'}
        ORDER BY f.session_id LIMIT ${PAGE_SESSIONS}`,
      after === null ? [] : [after],
    );
  }
  const filters = [after === null ? 'true' : 'session_id > $1', where === undefined ? 'true' : `(${where})`];
  return rows(
    connection,
    `${selectAll('sessions')} WHERE ${filters.join(' AND ')} ORDER BY session_id LIMIT ${PAGE_SESSIONS}`,
    after === null ? [] : [after],
  );
}

/**
 * Writes one JSON line per session (in session_id order) to `path`; returns the session count. With
 * `feed`, only the window's changed sessions, as change lines.
 */
export async function exportArchiveJsonl(
  connection: DuckDBConnection,
  where: string | undefined,
  path: string,
  progress: ExportProgress,
  feed?: FeedWindow,
): Promise<number> {
  const out = createWriteStream(path, { flags: 'wx', mode: outputModes().file });
  let count = 0;
  try {
    let after: string | null = null;
    for (;;) {
      let page: Row[];
      try {
        page = await nextPage(connection, after, where, feed);
      } catch (error) {
        throw exportQueryFailed(sessionsTable as unknown as AnyTable, error);
      }
      if (page.length === 0) break;
      const ids = page.filter((s) => s.feed_change !== 'absent').map((s) => String(s.session_id));
      const messages = await rowsOf(connection, 'messages', 'ordinal', ids);
      const tools = await rowsOf(connection, 'tool_calls', 'tool_ordinal', ids);
      for (const s of page) {
        const id = String(s.session_id);
        const line = (feed === undefined ? sessionJson : changeJson)(
          s,
          messages.get(id) ?? [],
          tools.get(id) ?? [],
        );
        if (!out.write(`${jsonText(line)}\n`)) await once(out, 'drain');
      }
      count += page.length;
      after = String(page[page.length - 1]!.session_id);
      progress.rows('sessions', count);
    }
  } finally {
    out.end();
    await once(out, 'finish');
  }
  return count;
}
