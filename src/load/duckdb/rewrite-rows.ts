/**
 * Copies an archive into a fresh warehouse through an ArchiveRewrite, range by range (flat memory):
 * session IDs replaced in rows, ledger and diagnostics alike; transcript prefix checkpoints dropped
 * (their source hashes would confirm guesses). Used by both targets.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  runsTable,
  sessionChangesTable,
  sessionSourcesTable,
  sessionStateTable,
  sourcesTable,
} from '../../../schemas/ledger-tables.js';
import {
  CONTENT_TABLES,
  diagnosticsTable,
  sessionsTable,
  sourceInstancesTable,
} from '../../../schemas/tables.js';
import type { ArchiveRewrite, StoredSession } from '../target.js';
import { appendToTable } from './row-appender.js';
import { readStoredSessions, storedSessionRanges, type TableSource } from './stored-sessions.js';

async function distinctIds(dest: DuckDBConnection, from: TableSource): Promise<string[]> {
  const union = [sessionsTable.name, sessionStateTable.name, sessionSourcesTable.name, diagnosticsTable.name]
    .map((table) => `SELECT session_id FROM ${from(table)} WHERE session_id IS NOT NULL`)
    .join(' UNION ');
  const reader = await dest.runAndReadAll(union);
  return reader.getRows().map((row) => String(row[0]));
}

/** Temp tables mapping old session IDs and occurrence references to their rewritten form. */
async function idMaps(dest: DuckDBConnection, from: TableSource, rewrite: ArchiveRewrite): Promise<void> {
  await dest.run('CREATE OR REPLACE TEMP TABLE rewrite_ids (old_id VARCHAR, new_id VARCHAR)');
  await dest.run('CREATE OR REPLACE TEMP TABLE rewrite_refs (old_ref VARCHAR, new_ref VARCHAR)');
  const changed = (await distinctIds(dest, from))
    .map((id) => ({ old_id: id, new_id: rewrite.sessionId(id) }))
    .filter((row) => row.new_id !== row.old_id);
  if (changed.length === 0) return;
  await insertPairs(
    dest,
    'rewrite_ids',
    changed.map((row) => [row.old_id, row.new_id]),
  );
  const refs = await dest.runAndReadAll(
    `SELECT DISTINCT occurrence_ref FROM (
       SELECT session_id, occurrence_ref FROM ${from(sessionSourcesTable.name)}
       UNION ALL SELECT session_id, occurrence_ref FROM ${from(sourceInstancesTable.name)})
     WHERE session_id IN (SELECT old_id FROM rewrite_ids)`,
  );
  const refPairs = refs.getRows().map(([ref]) => [String(ref), rewrite.occurrenceRef(String(ref))]);
  await insertPairs(dest, 'rewrite_refs', refPairs);
}

async function insertPairs(dest: DuckDBConnection, table: string, pairs: string[][]): Promise<void> {
  for (let i = 0; i < pairs.length; i += 500) {
    const chunk = pairs.slice(i, i + 500);
    const values = chunk.map((_, j) => `($${2 * j + 1}, $${2 * j + 2})`).join(', ');
    await dest.run(`INSERT INTO ${table} VALUES ${values}`, chunk.flat());
  }
}

const NEW_ID = 'coalesce((SELECT new_id FROM rewrite_ids WHERE old_id = t.session_id), t.session_id)';
const NEW_REF =
  'coalesce((SELECT new_ref FROM rewrite_refs WHERE old_ref = t.occurrence_ref), t.occurrence_ref)';

async function copyLedger(dest: DuckDBConnection, from: TableSource): Promise<void> {
  const copies: [string, string][] = [
    [runsTable.name, '*'],
    [sourcesTable.name, '* REPLACE (NULL AS checkpoint)'],
    [sessionSourcesTable.name, `* REPLACE (${NEW_ID} AS session_id, ${NEW_REF} AS occurrence_ref)`],
    [sessionStateTable.name, `* REPLACE (${NEW_ID} AS session_id)`],
    [diagnosticsTable.name, `* REPLACE (${NEW_ID} AS session_id)`],
    // Consumer cursors are not copied: every session's rows changed, so each consumer is sent all again.
    [sessionChangesTable.name, `* REPLACE (${NEW_ID} AS session_id)`],
  ];
  for (const [table, select] of copies)
    await dest.run(`INSERT INTO ${table} BY NAME SELECT ${select} FROM ${from(table)} t`);
}

async function inTransaction(dest: DuckDBConnection, work: () => Promise<void>): Promise<void> {
  await dest.run('BEGIN TRANSACTION');
  try {
    await work();
    await dest.run('COMMIT');
  } catch (error) {
    await dest.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The rows a stored session holds in each content table. */
const ROWS_IN: Record<string, (s: StoredSession) => readonly Record<string, unknown>[]> = {
  sessions: (s) => [s.session],
  messages: (s) => s.messages,
  tool_calls: (s) => s.toolCalls,
  source_instances: (s) => s.sourceInstances,
  row_provenance: (s) => s.rowProvenance,
  file_edits: (s) => s.fileEdits,
  usage: (s) => s.usage,
};

/** Rewrites every session of `from` into `dest`; returns how many. `dest` must be empty. */
export async function rewriteRows(
  dest: DuckDBConnection,
  from: TableSource,
  rewrite: ArchiveRewrite,
): Promise<number> {
  await idMaps(dest, from, rewrite);
  await inTransaction(dest, () => copyLedger(dest, from));
  let sessions = 0;
  for (const range of await storedSessionRanges(dest, undefined, from)) {
    const rewritten: StoredSession[] = [];
    for (const stored of await readStoredSessions(dest, range, from))
      rewritten.push(await rewrite.session(stored));
    await inTransaction(dest, async () => {
      for (const table of CONTENT_TABLES)
        await appendToTable(dest, table, rewritten.flatMap(ROWS_IN[table.name]!));
    });
    sessions += rewritten.length;
  }
  return sessions;
}
