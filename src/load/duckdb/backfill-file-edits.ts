/**
 * Derives the `file_edits` rows of every stored session from its stored rows, range by range (memory
 * flat in the warehouse's size): a warehouse of an older build gains the edits of sessions whose
 * sources are gone. Code-block edits need the source and come with the next read.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { fileEditsTable } from '../../../schemas/tables.js';
import { fileEditRows } from '../../transform/file-edits/file-edit-rows.js';
import { appendToTable } from './row-appender.js';
import { readStoredSessions, storedSessionRanges } from './stored-sessions.js';

/** Returns how many rows were added. Sessions that already have rows are left as they are. */
export async function backfillFileEdits(connection: DuckDBConnection): Promise<number> {
  let added = 0;
  for (const range of await storedSessionRanges(connection)) {
    const rows = [];
    for (const stored of await readStoredSessions(connection, range)) {
      if (stored.fileEdits.length > 0) continue;
      rows.push(
        ...fileEditRows({
          sessionId: stored.session.session_id,
          workspacePath: stored.session.workspace_path,
          messages: stored.messages,
          toolCalls: stored.toolCalls,
        }).rows,
      );
    }
    await appendToTable(connection, fileEditsTable, rows);
    added += rows.length;
  }
  return added;
}
