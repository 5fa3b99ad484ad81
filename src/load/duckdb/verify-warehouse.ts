/**
 * `etl verify`: recompute every session's digest from its stored rows and compare with
 * `view_digest`; check counts and references. Sessions are checked in ranges of bounded row count,
 * so memory stays flat however large the warehouse.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnSpec, TableDefinition } from '../../../schemas/table-definition.js';
import { CONTENT_TABLES } from '../../../schemas/tables.js';
import { computeViewDigest } from '../../transform/view-digest.js';
import { RANGE_ROWS, readStoredSessions, storedSessionRanges } from './stored-sessions.js';
import { fitMemoryLimit } from './value-memory.js';

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
 * Verify's read-only connection: a bounded pool evicts blocks so RSS stays flat in the warehouse
 * size, and spills go to a private directory (set before the configuration is locked).
 */
export function verifySettings(spillDir: string): Record<string, string> {
  return { temp_directory: spillDir, memory_limit: `${VERIFY_MEMORY_BYTES / 1_000_000}MB` };
}

const VERIFY_MEMORY_BYTES = 128_000_000;

type AnyTable = TableDefinition<Record<string, ColumnSpec>>;

/** The largest text value of the content tables, read from the values: the connection may be Parquet views. */
async function largestContentValueBytes(connection: DuckDBConnection): Promise<number> {
  let largest = 0;
  for (const table of CONTENT_TABLES as unknown as AnyTable[]) {
    const texts = Object.entries(table.columns)
      .filter(([, spec]) => spec.kind === 'text' || spec.kind === 'json')
      .map(([name]) => `coalesce(max(strlen(${name}::VARCHAR)), 0)`);
    const reader = await connection.runAndReadAll(
      `SELECT greatest(${texts.join(', ')}) AS n FROM ${table.name}`,
    );
    largest = Math.max(largest, Number(reader.getRowObjects()[0]?.n ?? 0));
  }
  return largest;
}

/** Raises verify's memory limit so the largest stored value fits; runs before the sandbox lock. */
export async function fitVerifyMemory(connection: DuckDBConnection): Promise<void> {
  await fitMemoryLimit(connection, VERIFY_MEMORY_BYTES, await largestContentValueBytes(connection));
}

export function verifyWarehouse(
  connection: DuckDBConnection,
  rangeRows: number = RANGE_ROWS,
): Promise<VerifyReport> {
  return verifyRanges(connection, rangeRows);
}

async function verifyRanges(connection: DuckDBConnection, rangeRows: number): Promise<VerifyReport> {
  const problems: VerifyProblem[] = [];
  await countProblems(connection, problems);
  const ranges = await storedSessionRanges(connection, rangeRows);
  let sessionsChecked = 0;
  for (const range of ranges) {
    sessionsChecked += range.sessionIds.length;
    for (const { session, messages, toolCalls, sourceInstances, usage } of await readStoredSessions(
      connection,
      range,
    )) {
      const id = session.session_id;
      const digest = computeViewDigest({ session, messages, toolCalls, sourceInstances, usage });
      if (digest !== session.view_digest)
        problems.push({ check: 'digest', sessionId: id, table: 'sessions' });
      if (session.message_count !== messages.length) {
        problems.push({ check: 'message-count', sessionId: id, table: 'messages' });
      }
      if (session.tool_call_count !== toolCalls.length) {
        problems.push({ check: 'tool-call-count', sessionId: id, table: 'tool_calls' });
      }
    }
  }
  return { sessionsChecked, problems };
}
