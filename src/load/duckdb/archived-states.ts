/**
 * What the warehouse holds of incoming sessions, as the replace decision compares it: each one's
 * view digest, fidelity and origin, which carriers contributed, its provenance and file-edit keys.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  CURSOR_CONTRIBUTION_SQL,
  LIVE_CONTRIBUTION_SQL,
  PROVENANCE_KEY_SQL,
  ROW_PROVENANCE_KEY_SQL,
} from '../carrier-provenance.js';
import { FILE_EDITS_SIGNATURE_SQL } from '../file-edits-signature.js';
import type { ArchivedState } from '../replace-decision.js';
import { placeholders } from './row-appender.js';

export async function readArchivedStates(
  connection: DuckDBConnection,
  ids: string[],
): Promise<Map<string, ArchivedState>> {
  const reader = await connection.runAndReadAll(
    `SELECT s.session_id, s.view_digest, s.fidelity, s.origin, epoch_ms(s.updated_at) AS updated_ms,
       EXISTS (SELECT 1 FROM source_instances i WHERE i.session_id = s.session_id AND ${LIVE_CONTRIBUTION_SQL}) AS live,
       EXISTS (SELECT 1 FROM source_instances i WHERE i.session_id = s.session_id AND ${CURSOR_CONTRIBUTION_SQL}) AS cursor,
       (SELECT ${PROVENANCE_KEY_SQL} FROM source_instances i WHERE i.session_id = s.session_id) || '|' ||
       (SELECT ${ROW_PROVENANCE_KEY_SQL} FROM row_provenance p WHERE p.session_id = s.session_id) AS provenance,
       (SELECT ${FILE_EDITS_SIGNATURE_SQL} FROM file_edits f WHERE f.session_id = s.session_id) AS edits
       FROM sessions s WHERE s.session_id IN (${placeholders(ids.length)})`,
    ids,
  );
  const map = new Map<string, ArchivedState>();
  for (const row of reader.getRowObjects()) {
    map.set(String(row.session_id), {
      viewDigest: String(row.view_digest),
      fidelity: row.fidelity === 'complete' ? 'complete' : 'partial',
      liveContributed: row.live === true,
      cursorBacked: row.cursor === true,
      provenance: String(row.provenance),
      fileEdits: String(row.edits),
      origin: row.origin === null ? null : String(row.origin),
      updatedAtMs: row.updated_ms === null ? null : Number(row.updated_ms),
    });
  }
  return map;
}
