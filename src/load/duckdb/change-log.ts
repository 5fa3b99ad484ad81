/**
 * Appends to `etl_session_changes` inside the caller's load transaction. Positions continue the
 * log's highest, so under the run lock every committed change is later than every change committed
 * before it: a change feed cursor is one number.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { SESSION_CHANGES } from '../../../schemas/ledger-tables.js';
import { listValue } from './duckdb-api.js';

export type SessionChange = (typeof SESSION_CHANGES)[number];

export async function appendChanges(
  connection: DuckDBConnection,
  runId: string,
  changes: readonly { sessionId: string; change: SessionChange }[],
): Promise<void> {
  if (changes.length === 0) return;
  await connection.run(
    `INSERT INTO etl_session_changes (change_seq, run_id, session_id, change)
      SELECT (SELECT coalesce(max(change_seq), 0) FROM etl_session_changes) + row_number() OVER (ORDER BY ord),
        $1, session_id, change
      FROM (SELECT unnest($2::VARCHAR[]) AS session_id, unnest($3::VARCHAR[]) AS change,
        generate_subscripts($2::VARCHAR[], 1) AS ord)`,
    [runId, listValue(changes.map((c) => c.sessionId)), listValue(changes.map((c) => c.change))],
  );
}
