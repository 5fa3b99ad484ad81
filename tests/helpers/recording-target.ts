/** A warehouse target that loads nothing and records what the run asked of it (run-step unit tests). */
import type { LedgerBatch, SyncLedgerStore } from '../../src/load/sync-ledger.js';
import type { RunCounts, RunStatus, WarehouseTarget } from '../../src/load/target.js';
import type { Diagnostic } from '../../src/shared/diagnostic.js';
import type { NormalizedSession } from '../../src/transform/normalized-session.js';

export interface RecordedRun {
  batches: { sessions: readonly NormalizedSession[]; ledger: LedgerBatch | undefined }[];
  diagnostics: Diagnostic[] | null;
  finished: { status: RunStatus; counts: RunCounts } | null;
}

export function recordingTarget(ledger?: SyncLedgerStore): WarehouseTarget & { recorded: RecordedRun } {
  const recorded: RecordedRun = { batches: [], diagnostics: null, finished: null };
  return {
    kind: 'duckdb',
    ...(ledger ? { ledger } : {}),
    redactionPolicy: null,
    recorded,
    rewriteArchive: async () => 0,
    beginRun: async () => undefined,
    loadBatch: async (sessions, batchLedger) => {
      recorded.batches.push({ sessions, ledger: batchLedger });
      return sessions.map((s) => ({ sessionId: s.session.session_id, action: 'insert' as const }));
    },
    recordDiagnostics: async (_runId, diagnostics) => {
      recorded.diagnostics = [...diagnostics];
    },
    finishRun: async (_runId, status, _at, counts) => {
      recorded.finished = { status, counts: { ...counts } };
    },
    close: async () => undefined,
  };
}
