/** The load stage's contract, implemented by the DuckDB warehouse and the Parquet dataset. */
import type { Diagnostic } from '../shared/diagnostic.js';
import type { NormalizedSession } from '../transform/normalized-session.js';
import type { LoadAction, LoadPolicy } from './replace-decision.js';
import type { LedgerBatch, SyncLedgerStore } from './sync-ledger.js';

export interface RunInfo {
  runId: string;
  startedAtMs: number;
  mode: 'full' | 'since-last';
  optionsDigest: string;
}

export interface LoadResult {
  sessionId: string;
  action: LoadAction;
}

export interface RunCounts {
  sourcesSeen: number;
  sourcesSkippedUnchanged: number;
  sessionsInserted: number;
  sessionsReplaced: number;
  sessionsUnchanged: number;
  sessionsKeptComplete: number;
  sessionsAmbiguous: number;
  sessionsMarkedAbsent: number;
  diagnostics: number;
}

export type RunStatus = 'running' | 'committed' | 'failed' | 'interrupted';

export interface WarehouseTarget {
  readonly kind: 'duckdb' | 'parquet';
  /** The durable sync ledger, when the target keeps one; without it `--since-last` reads everything. */
  readonly ledger?: SyncLedgerStore;
  beginRun(run: RunInfo): Promise<void>;
  /**
   * Applies a batch of sessions atomically per session (many sessions per transaction). A target
   * with a ledger writes `ledger` in the same transaction as the batch's rows.
   */
  loadBatch(
    sessions: readonly NormalizedSession[],
    ledger?: LedgerBatch,
    policy?: LoadPolicy,
  ): Promise<LoadResult[]>;
  recordDiagnostics(runId: string, diagnostics: readonly Diagnostic[]): Promise<void>;
  finishRun(
    runId: string,
    status: RunStatus,
    finishedAtMs: number,
    counts: RunCounts,
    payloadBytesRead?: number,
  ): Promise<void>;
  close(): Promise<void>;
}
