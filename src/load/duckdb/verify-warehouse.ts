/**
 * `etl verify`: recompute every session's digest from its stored rows and compare with
 * `view_digest`; check counts and references. Sessions are checked in bounded chunks.
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
import { computeViewDigest } from '../../transform/view-digest.js';

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

const CHUNK = 500;
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

async function rowsFor(connection: DuckDBConnection, table: AnyTable, ids: string[], orderBy: string) {
  const params = ids.map((_, i) => `$${i + 1}`).join(', ');
  const reader = await connection.runAndReadAll(
    `SELECT ${selectList(table)} FROM ${table.name} WHERE session_id IN (${params}) ORDER BY session_id, ${orderBy}`,
    ids,
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

export async function verifyWarehouse(connection: DuckDBConnection): Promise<VerifyReport> {
  const problems: VerifyProblem[] = [];
  await countProblems(connection, problems);
  const idReader = await connection.runAndReadAll(
    'SELECT DISTINCT session_id FROM sessions ORDER BY session_id',
  );
  const ids = idReader.getRowObjects().map((r) => String(r.session_id));
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const sessions = await rowsFor(connection, sessionsTable as unknown as AnyTable, chunk, 'session_id');
    const messages = await rowsFor(connection, messagesTable as unknown as AnyTable, chunk, 'ordinal');
    const tools = await rowsFor(
      connection,
      toolCallsTable as unknown as AnyTable,
      chunk,
      'message_id, tool_ordinal',
    );
    const instances = await rowsFor(
      connection,
      sourceInstancesTable as unknown as AnyTable,
      chunk,
      'instance_ordinal',
    );
    for (const id of chunk) {
      const session = sessions.get(id)?.[0] as SessionRow | undefined;
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
  return { sessionsChecked: ids.length, problems };
}
