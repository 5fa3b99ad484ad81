/**
 * Reads archived sessions back as the rows the load wrote, a range of sessions at a time (bounded
 * row count), from any connection whose tables are named like the warehouse's (the DuckDB file, a
 * Parquet state's views): what `etl verify` checks and what re-redaction rewrites.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnSpec, TableDefinition } from '../../../schemas/table-definition.js';
import type {
  FileEditRow,
  MessageRow,
  RowProvenanceRow,
  SessionRow,
  SourceInstanceRow,
  ToolCallRow,
  UsageRow,
} from '../../../schemas/tables.js';
import {
  fileEditsTable,
  messagesTable,
  rowProvenanceTable,
  sessionsTable,
  sourceInstancesTable,
  toolCallsTable,
  usageTable,
} from '../../../schemas/tables.js';
import type { StoredSession } from '../target.js';
import { type SessionRange, sessionRanges } from './session-ranges.js';

/**
 * Rows (messages + tool calls + the session) read at once: ~12 MB of text at the bench corpus's
 * average. Chunks of 500 sessions held ~125 MB of text as rows and took verify past 2 GB of RSS.
 */
export const RANGE_ROWS = 5_000;

type AnyTable = TableDefinition<Record<string, ColumnSpec>>;

function selectList(table: AnyTable): string {
  return Object.entries(table.columns)
    .map(([name, spec]) => (spec.kind === 'timestamp' ? `epoch_ms(${name}) AS ${name}` : name))
    .join(', ');
}

function normalizeRow(table: AnyTable, raw: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table.columns)) {
    const value = raw[name];
    if (value === null || value === undefined) row[name] = null;
    else if (spec.kind === 'bigint' || spec.kind === 'timestamp' || spec.kind === 'int')
      row[name] = Number(value);
    else row[name] = value;
  }
  return row;
}

/** Where a table's rows are read: its name, or a relation standing for it (an attached file, Parquet files). */
export type TableSource = (table: string) => string;
const byName: TableSource = (table) => table;

async function rowsFor(
  connection: DuckDBConnection,
  table: AnyTable,
  range: SessionRange,
  orderBy: string,
  from: TableSource,
) {
  const reader = await connection.runAndReadAll(
    `SELECT ${selectList(table)} FROM ${from(table.name)} WHERE session_id BETWEEN $1 AND $2 ORDER BY session_id, ${orderBy}`,
    [range.first, range.last],
  );
  const bySession = new Map<string, Record<string, unknown>[]>();
  for (const raw of reader.getRowObjects()) {
    const row = normalizeRow(table, raw);
    const id = String(row.session_id);
    const list = bySession.get(id) ?? [];
    if (list.length === 0) bySession.set(id, list);
    list.push(row);
  }
  return bySession;
}

/** The archive's sessions in ranges of at most `rangeRows` rows, in session ID order. */
export async function storedSessionRanges(
  connection: DuckDBConnection,
  rangeRows: number = RANGE_ROWS,
  from: TableSource = byName,
): Promise<SessionRange[]> {
  // Counts come from the stored rows, not the session row, which may itself be wrong.
  const weights = await connection.runAndReadAll(
    `SELECT s.session_id, 1 + coalesce(m.n, 0) + coalesce(t.n, 0) AS rows
       FROM (SELECT DISTINCT session_id FROM ${from('sessions')}) s
       LEFT JOIN (SELECT session_id, count(*) AS n FROM ${from('messages')} GROUP BY session_id) m USING (session_id)
       LEFT JOIN (SELECT session_id, count(*) AS n FROM ${from('tool_calls')} GROUP BY session_id) t USING (session_id)
       ORDER BY s.session_id`,
  );
  const sessions = weights
    .getRowObjects()
    .map((r) => ({ sessionId: String(r.session_id), weight: Number(r.rows) }));
  return sessionRanges(sessions, rangeRows);
}

/** The stored rows of a range's sessions; tool calls in message order, then tool ordinal. */
export async function readStoredSessions(
  connection: DuckDBConnection,
  range: SessionRange,
  from: TableSource = byName,
): Promise<StoredSession[]> {
  const read = (table: unknown, orderBy: string) =>
    rowsFor(connection, table as AnyTable, range, orderBy, from);
  const sessionRows = await read(sessionsTable, 'session_id');
  const messages = await read(messagesTable, 'ordinal');
  const tools = await read(toolCallsTable, 'message_id, tool_ordinal');
  const instances = await read(sourceInstancesTable, 'instance_ordinal');
  const provenance = await read(rowProvenanceTable, 'row_kind, row_id, instance_ordinal, locator');
  const edits = await read(fileEditsTable, 'message_id, edit_ordinal');
  const usage = await read(usageTable, 'usage_ordinal');
  const out: StoredSession[] = [];
  for (const id of range.sessionIds) {
    const session = sessionRows.get(id)?.[0] as SessionRow | undefined;
    if (!session) continue;
    const sessionMessages = (messages.get(id) ?? []) as MessageRow[];
    const order = new Map(sessionMessages.map((m) => [m.message_id, m.ordinal]));
    const toolCalls = ((tools.get(id) ?? []) as ToolCallRow[]).sort(
      (a, b) =>
        (order.get(a.message_id) ?? 0) - (order.get(b.message_id) ?? 0) || a.tool_ordinal - b.tool_ordinal,
    );
    out.push({
      session,
      messages: sessionMessages,
      toolCalls,
      sourceInstances: (instances.get(id) ?? []) as SourceInstanceRow[],
      rowProvenance: (provenance.get(id) ?? []) as RowProvenanceRow[],
      fileEdits: (edits.get(id) ?? []) as FileEditRow[],
      usage: (usage.get(id) ?? []) as UsageRow[],
    });
  }
  return out;
}
