/** The load stage's contract, implemented by the DuckDB warehouse and the Parquet dataset. */
import type { Diagnostic } from '../shared/diagnostic.js';
import type { NormalizedSession } from '../transform/normalized-session.js';
import type { LoadAction } from './replace-decision.js';

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
  diagnostics: number;
}

export type RunStatus = 'running' | 'committed' | 'failed' | 'interrupted';

export interface WarehouseTarget {
  readonly kind: 'duckdb' | 'parquet';
  beginRun(run: RunInfo): Promise<void>;
  /** Applies a batch of sessions atomically per session (many sessions per transaction). */
  loadBatch(sessions: readonly NormalizedSession[]): Promise<LoadResult[]>;
  recordDiagnostics(runId: string, diagnostics: readonly Diagnostic[]): Promise<void>;
  finishRun(runId: string, status: RunStatus, finishedAtMs: number, counts: RunCounts): Promise<void>;
  close(): Promise<void>;
}
