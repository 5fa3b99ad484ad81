/**
 * `etl verify`: recompute every session's digest from its stored rows and compare with
 * `view_digest`; check counts and references. Sessions are checked in ranges of bounded row count,
 * so memory stays flat however large the warehouse.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnSpec, TableDefinition } from '../../../schemas/table-definition.js';
import type { MessageRow, SessionRow, SourceInstanceRow, ToolCallRow } from '../../../schemas/tables.js';
import {
  messagesTable,
  sessionsTable,
  sourceInstancesTable,
  toolCallsTable,
} from '../../../schemas/tables.js';
import { PrivateTempDir } from '../../extract/fs/private-temp-dir.js';
import { computeViewDigest } from '../../transform/view-digest.js';
import { type SessionRange, sessionRanges } from './session-ranges.js';
import { sqlString } from './sql-string.js';

export interface VerifyProblem {
  check: 'digest' | 'message-count' | 'tool-call-count' | 'orphan-row' | 'duplicate-key' | 'ledger-missing';
  sessionId: string | null;
  table: string;
  count?: number;
}

export interface VerifyReport {
  sessionsChecked: number;
  problems: VerifyProblem[];
}

/**
 * Rows (messages + tool calls + the session) read at once: ~12 MB of text at the bench corpus's
 * average. Chunks of 500 sessions held ~125 MB of text as rows and took verify past 2 GB of RSS.
 */
const RANGE_ROWS = 5_000;
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

async function rowsFor(connection: DuckDBConnection, table: AnyTable, range: SessionRange, orderBy: string) {
  const reader = await connection.runAndReadAll(
    `SELECT ${selectList(table)} FROM ${table.name} WHERE session_id BETWEEN $1 AND $2 ORDER BY session_id, ${orderBy}`,
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

async function countProblems(connection: DuckDBConnection, problems: VerifyProblem[]): Promise<void> {
  const checks: [VerifyProblem['check'], string, string][] = [
    [
      'orphan-row',
      'messages',
      'SELECT count(*) AS n FROM messages m ANTI JOIN sessions s USING (session_id)',
    ],
    [
      'orphan-row',
      'tool_calls',
      'SELECT count(*) AS n FROM tool_calls t ANTI JOIN messages m USING (session_id, message_id)',
    ],
    [
      'orphan-row',
      'source_instances',
      'SELECT count(*) AS n FROM source_instances i ANTI JOIN sessions s USING (session_id)',
    ],
    [
      'duplicate-key',
      'sessions',
      'SELECT count(*) AS n FROM (SELECT session_id FROM sessions GROUP BY ALL HAVING count(*) > 1)',
    ],
    [
      'duplicate-key',
      'messages',
      'SELECT count(*) AS n FROM (SELECT session_id, message_id FROM messages GROUP BY ALL HAVING count(*) > 1)',
    ],
    [
      'ledger-missing',
      'etl_session_state',
      'SELECT count(*) AS n FROM sessions s ANTI JOIN etl_session_state l USING (session_id)',
    ],
    [
      'orphan-row',
      'etl_session_state',
      'SELECT count(*) AS n FROM etl_session_state l ANTI JOIN sessions s USING (session_id)',
    ],
  ];
  for (const [check, table, sql] of checks) {
    const n = Number((await connection.runAndReadAll(sql)).getRowObjects()[0]?.n ?? 0);
    if (n > 0) problems.push({ check, sessionId: null, table, count: n });
  }
}

/**
 * Verify reads every block once, and DuckDB's default pool (80 % of RAM) kept them all cached: RSS
 * grew with the warehouse (918 MB for a 575 MB file). Bounded, it evicts them; the duplicate-key
 * aggregates may spill, into a private directory rather than beside the warehouse.
 */
const VERIFY_MEMORY_LIMIT = '128MB';

export async function verifyWarehouse(
  connection: DuckDBConnection,
  rangeRows: number = RANGE_ROWS,
): Promise<VerifyReport> {
  const spill = PrivateTempDir.create();
  try {
    await connection.run(`SET temp_directory = ${sqlString(spill.path)}`);
    await connection.run(`SET memory_limit = ${sqlString(VERIFY_MEMORY_LIMIT)}`);
    return await verifyRanges(connection, rangeRows);
  } finally {
    spill.dispose();
  }
}

async function verifyRanges(connection: DuckDBConnection, rangeRows: number): Promise<VerifyReport> {
  const problems: VerifyProblem[] = [];
  await countProblems(connection, problems);
  // Counts come from the stored rows, not the session row, which may itself be wrong.
  const weights = await connection.runAndReadAll(
    `SELECT s.session_id, 1 + coalesce(m.n, 0) + coalesce(t.n, 0) AS rows
       FROM (SELECT DISTINCT session_id FROM sessions) s
       LEFT JOIN (SELECT session_id, count(*) AS n FROM messages GROUP BY session_id) m USING (session_id)
       LEFT JOIN (SELECT session_id, count(*) AS n FROM tool_calls GROUP BY session_id) t USING (session_id)
       ORDER BY s.session_id`,
  );
  const sessions = weights
    .getRowObjects()
    .map((r) => ({ sessionId: String(r.session_id), weight: Number(r.rows) }));
  for (const range of sessionRanges(sessions, rangeRows)) {
    const sessionRows = await rowsFor(connection, sessionsTable as unknown as AnyTable, range, 'session_id');
    const messages = await rowsFor(connection, messagesTable as unknown as AnyTable, range, 'ordinal');
    const tools = await rowsFor(
      connection,
      toolCallsTable as unknown as AnyTable,
      range,
      'message_id, tool_ordinal',
    );
    const instances = await rowsFor(
      connection,
      sourceInstancesTable as unknown as AnyTable,
      range,
      'instance_ordinal',
    );
    for (const id of range.sessionIds) {
      const session = sessionRows.get(id)?.[0] as SessionRow | undefined;
      if (!session) continue;
      const sessionMessages = (messages.get(id) ?? []) as MessageRow[];
      const order = new Map(sessionMessages.map((m) => [m.message_id, m.ordinal]));
      const sessionTools = ((tools.get(id) ?? []) as ToolCallRow[]).sort(
        (a, b) =>
          (order.get(a.message_id) ?? 0) - (order.get(b.message_id) ?? 0) || a.tool_ordinal - b.tool_ordinal,
      );
      const digest = computeViewDigest({
        session,
        messages: sessionMessages,
        toolCalls: sessionTools,
        sourceInstances: (instances.get(id) ?? []) as SourceInstanceRow[],
      });
      if (digest !== session.view_digest)
        problems.push({ check: 'digest', sessionId: id, table: 'sessions' });
      if (session.message_count !== sessionMessages.length) {
        problems.push({ check: 'message-count', sessionId: id, table: 'messages' });
      }
      if (session.tool_call_count !== sessionTools.length) {
        problems.push({ check: 'tool-call-count', sessionId: id, table: 'tool_calls' });
      }
    }
  }
  return { sessionsChecked: sessions.length, problems };
}
