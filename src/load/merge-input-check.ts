/**
 * Verify-on-read of a merge input's session: its stored digest must be the digest of its rows as the
 * input stores them (this build's definition over the input's own columns), checked against the
 * digest read before any migration, so a recompute never makes a forged row pass.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { messagesTable, sessionsTable, sourceInstancesTable, toolCallsTable } from '../../schemas/tables.js';
import { fileEditRows } from '../transform/file-edits/file-edit-rows.js';
import { computeViewDigest } from '../transform/view-digest.js';
import { type StoredSessionProblem, storedSessionProblems } from './duckdb/stored-session-check.js';
import type { StoredSession } from './target.js';

/** The tables a view digest hashes, with this build's columns. */
export const DIGEST_TABLES = [sessionsTable, messagesTable, toolCallsTable, sourceInstancesTable].map(
  (table) => ({ name: table.name, columns: table.columnNames as readonly string[] }),
);

/** Per digest table, the columns of this build the input's rows lack (read as NULL). */
export type AbsentColumns = ReadonlyMap<string, ReadonlySet<string>>;

/** `present` lists, per table, the columns the input stores; the rest of this build's are absent. */
export function absentColumns(present: ReadonlyMap<string, ReadonlySet<string>>): AbsentColumns {
  const absent = new Map<string, Set<string>>();
  for (const table of DIGEST_TABLES) {
    const stored = present.get(table.name);
    if (stored === undefined) continue;
    const lacking = table.columns.filter((column) => !stored.has(column));
    if (lacking.length > 0) absent.set(table.name, new Set(lacking));
  }
  return absent;
}

/** The digest tables' columns of a DuckDB file, from its catalog. */
export async function duckDbColumns(connection: DuckDBConnection): Promise<Map<string, Set<string>>> {
  const reader = await connection.runAndReadAll(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = 'main' AND table_name IN (${DIGEST_TABLES.map((t) => `'${t.name}'`).join(', ')})`,
  );
  const present = new Map<string, Set<string>>();
  for (const [table, column] of reader.getRows()) {
    const columns = present.get(String(table)) ?? new Set<string>();
    present.set(String(table), columns.add(String(column)));
  }
  return present;
}

function strip<T extends object>(row: T, absent: ReadonlySet<string> | undefined): T {
  if (absent === undefined) return row;
  return Object.fromEntries(Object.entries(row).filter(([name]) => !absent.has(name))) as T;
}

/** The session's rows as the input stores them: the columns it lacks left out, as its digest saw them. */
function asStored(stored: StoredSession, absent: AbsentColumns): StoredSession {
  if (absent.size === 0) return stored;
  return {
    ...stored,
    session: strip(stored.session, absent.get('sessions')),
    messages: stored.messages.map((row) => strip(row, absent.get('messages'))),
    toolCalls: stored.toolCalls.map((row) => strip(row, absent.get('tool_calls'))),
    sourceInstances: stored.sourceInstances.map((row) => strip(row, absent.get('source_instances'))),
  };
}

/** What is wrong with a session read from an input whose stored digest of it is `storedDigest`. */
export function inputSessionProblems(
  stored: StoredSession,
  storedDigest: string | undefined,
  absent: AbsentColumns,
): StoredSessionProblem[] {
  const counts = storedSessionProblems(stored).filter((problem) => problem !== 'digest');
  const digest = computeViewDigest(asStored(stored, absent));
  return digest === storedDigest ? counts : ['digest', ...counts];
}

/**
 * A verified session in this build's terms: its digest under this build's columns, and the file
 * edits an input older than `file_edits` lacks, derived as the migration backfills them.
 */
export function inCurrentTerms(stored: StoredSession, derivesFileEdits: boolean): StoredSession {
  const fileEdits =
    derivesFileEdits && stored.fileEdits.length === 0
      ? fileEditRows({
          sessionId: stored.session.session_id,
          workspacePath: stored.session.workspace_path,
          messages: stored.messages,
          toolCalls: stored.toolCalls,
        }).rows
      : stored.fileEdits;
  const session = { ...stored.session, view_digest: computeViewDigest(stored) };
  return { ...stored, session, fileEdits };
}
