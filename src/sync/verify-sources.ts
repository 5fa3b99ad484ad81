/**
 * `etl verify --sources`: reads the sources as a full run would, writes nothing, and judges each
 * fresh view by the rule a run loads by: missing (would insert), differs (would replace), extra
 * (archived as present, in no source). Session IDs only.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  CURSOR_CONTRIBUTION_SQL,
  isBackupOnly,
  isCaptureBacked,
  LIVE_CONTRIBUTION_SQL,
} from '../load/carrier-provenance.js';
import { type ArchivedState, decideLoad, type IncomingState } from '../load/replace-decision.js';
import type { LoadResult, WarehouseTarget } from '../load/target.js';
import { UsageError } from '../shared/errors.js';
import type { RedactionPolicy } from '../shared/redaction-policy.js';
import type { NormalizedSession } from '../transform/normalized-session.js';
import { runPipeline } from './run-pipeline.js';
import type { RunOptions } from './run-state.js';

export interface ArchivedSession {
  state: ArchivedState;
  present: boolean;
}

export interface SourcesComparison {
  sessionsRead: number;
  sessionsArchived: number;
  differ: string[];
  missing: string[];
  extra: string[];
}

/** Every archived session's load state; presence comes from the ledger where the target keeps one. */
export async function readArchivedSessions(
  connection: DuckDBConnection,
): Promise<Map<string, ArchivedSession>> {
  const ledger = await connection.runAndReadAll(
    "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'etl_session_state'",
  );
  const hasLedger = Number(ledger.getRowObjects()[0]!.n) > 0;
  const present = hasLedger
    ? 'coalesce((SELECT st.present_in_source FROM etl_session_state st WHERE st.session_id = s.session_id), true)'
    : 'true';
  const reader = await connection.runAndReadAll(
    `SELECT s.session_id, s.view_digest, s.fidelity, ${present} AS present,
       EXISTS (SELECT 1 FROM source_instances i WHERE i.session_id = s.session_id AND ${LIVE_CONTRIBUTION_SQL}) AS live,
       EXISTS (SELECT 1 FROM source_instances i WHERE i.session_id = s.session_id AND ${CURSOR_CONTRIBUTION_SQL}) AS cursor
       FROM sessions s`,
  );
  const map = new Map<string, ArchivedSession>();
  for (const row of reader.getRowObjects()) {
    map.set(String(row.session_id), {
      state: {
        viewDigest: String(row.view_digest),
        fidelity: row.fidelity === 'complete' ? 'complete' : 'partial',
        liveContributed: row.live === true,
        cursorBacked: row.cursor === true,
      },
      present: row.present === true,
    });
  }
  return map;
}

/** A target that keeps each fresh view's load state and writes nothing. */
class SourceProbe implements WarehouseTarget {
  readonly kind = 'duckdb';
  readonly fresh = new Map<string, IncomingState>();

  constructor(readonly redactionPolicy: RedactionPolicy | null) {}

  async rewriteArchive(): Promise<number> {
    throw new UsageError('USAGE_ERROR', 'The archive must be re-redacted before it can be compared', {
      reason: 'run `etl run` (or `etl redact`) with this build first',
    });
  }

  async beginRun(): Promise<void> {}

  async loadBatch(sessions: readonly NormalizedSession[]): Promise<LoadResult[]> {
    for (const s of sessions) {
      this.fresh.set(s.session.session_id, {
        viewDigest: s.session.view_digest,
        fidelity: s.session.fidelity,
        resolutionState: s.session.resolution_state,
        backupOnly: isBackupOnly(s.sourceInstances),
        captureBacked: isCaptureBacked(s.sourceInstances),
      });
    }
    return sessions.map((s) => ({ sessionId: s.session.session_id, action: 'unchanged' }));
  }

  async recordDiagnostics(): Promise<void> {}
  async finishRun(): Promise<void> {}
  async close(): Promise<void> {}
}

export async function compareWithSources(
  options: RunOptions,
  policy: RedactionPolicy | null,
  archived: ReadonlyMap<string, ArchivedSession>,
): Promise<SourcesComparison> {
  const probe = new SourceProbe(policy);
  await runPipeline({ ...options, sinceLast: false }, probe);
  const loadPolicy = { backupMayReplace: options.backupMayReplace ?? false };
  const differ: string[] = [];
  const missing: string[] = [];
  for (const [id, incoming] of probe.fresh) {
    const action = decideLoad(archived.get(id)?.state, incoming, loadPolicy);
    if (action === 'insert') missing.push(id);
    if (action === 'replace') differ.push(id);
  }
  // A workspace filter reads only part of the sources: what it did not read cannot be called gone.
  const extra =
    (options.workspace ?? null) === null
      ? [...archived].filter(([id, a]) => a.present && !probe.fresh.has(id)).map(([id]) => id)
      : [];
  const sorted = (ids: string[]): string[] => ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    sessionsRead: probe.fresh.size,
    sessionsArchived: archived.size,
    differ: sorted(differ),
    missing: sorted(missing),
    extra: sorted(extra),
  };
}
