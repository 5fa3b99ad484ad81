/**
 * A capture kept out of a session that Cursor's own data backs (`keep-cursor-data`) is still a
 * contributor: its instances join the archived session's `source_instances` as `superseded`, in
 * the order and with the view digest a run reading both sources would write. Content rows stay.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { type SourceInstanceRow, sessionsTable, sourceInstancesTable } from '../../../schemas/tables.js';
import { compareInstances } from '../../transform/finalize-session.js';
import type { NormalizedSession } from '../../transform/normalized-session.js';
import { computeViewDigest } from '../../transform/view-digest.js';
import { appendToTable } from './row-appender.js';
import { readStoredSessions } from './stored-sessions.js';

const CAPTURE_SET_ASIDE_REASON = 'capture-superseded-by-cursor-data';

/** Records the set-aside instances not already archived; returns how many rows were written. */
export async function recordSetAsideInstances(
  connection: DuckDBConnection,
  sessions: readonly NormalizedSession[],
): Promise<number> {
  let rows = 0;
  for (const incoming of sessions) {
    const id = incoming.session.session_id;
    const [stored] = await readStoredSessions(connection, { first: id, last: id, sessionIds: [id] });
    if (stored === undefined) continue;
    const known = new Set(stored.sourceInstances.map((i) => i.occurrence_ref));
    const added = incoming.sourceInstances
      .filter((i) => !known.has(i.occurrence_ref))
      .map(
        (i) => ({ ...i, state: 'superseded', reason_code: CAPTURE_SET_ASIDE_REASON }) as SourceInstanceRow,
      );
    if (added.length === 0) continue;
    const instances = [...stored.sourceInstances, ...added]
      .sort((a, b) =>
        compareInstances(a.representation, a.occurrence_ref, b.representation, b.occurrence_ref),
      )
      .map((i, index) => ({ ...i, instance_ordinal: index }));
    const digest = computeViewDigest({ ...stored, sourceInstances: instances });
    await connection.run(`DELETE FROM ${sourceInstancesTable.name} WHERE session_id = $1`, [id]);
    await appendToTable(connection, sourceInstancesTable, instances);
    await connection.run(`UPDATE ${sessionsTable.name} SET view_digest = $1 WHERE session_id = $2`, [
      digest,
      id,
    ]);
    rows += instances.length + 1;
  }
  return rows;
}
