/**
 * Rewrites every stored `view_digest` under the current digest definition, range by range (memory
 * flat in the warehouse's size), so a warehouse converges without replacing a single session.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { computeViewDigest } from '../../transform/view-digest.js';
import { readStoredSessions, storedSessionRanges } from './stored-sessions.js';

/** Returns how many sessions got a new digest. */
export async function recomputeViewDigests(connection: DuckDBConnection): Promise<number> {
  let changed = 0;
  for (const range of await storedSessionRanges(connection)) {
    for (const stored of await readStoredSessions(connection, range)) {
      const digest = computeViewDigest(stored);
      if (digest === stored.session.view_digest) continue;
      await connection.run('UPDATE sessions SET view_digest = $1 WHERE session_id = $2', [
        digest,
        stored.session.session_id,
      ]);
      changed++;
    }
  }
  return changed;
}
