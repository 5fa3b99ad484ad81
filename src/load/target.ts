/** The load stage's contract, implemented by the DuckDB warehouse and the Parquet dataset. */
import type {
  FileEditRow,
  MessageRow,
  RowProvenanceRow,
  SessionRow,
  SourceInstanceRow,
  ToolCallRow,
  UsageRow,
} from '../../schemas/tables.js';
import type { Diagnostic } from '../shared/diagnostic.js';
import type { RedactionPolicy } from '../shared/redaction-policy.js';
import type { NormalizedSession } from '../transform/normalized-session.js';
import type { LoadAction, LoadPolicy } from './replace-decision.js';
import type { LedgerBatch, SyncLedgerStore } from './sync-ledger.js';

export interface RunInfo {
  runId: string;
  startedAtMs: number;
  mode: 'full' | 'since-last' | 'merge';
  optionsDigest: string;
  /** The origin the run writes as (`etl_runs.origin`); null or absent: none recorded. */
  origin?: string | null;
  /** The redaction policy the warehouse stores from this run on (null: none, as before). */
  redaction?: RedactionPolicy | null;
}

/** An archived session as stored rows. */
export interface StoredSession {
  session: SessionRow;
  messages: MessageRow[];
  toolCalls: ToolCallRow[];
  sourceInstances: SourceInstanceRow[];
  rowProvenance: RowProvenanceRow[];
  fileEdits: FileEditRow[];
  usage: UsageRow[];
}

/**
 * A rewrite of every archived session (re-redaction). The target applies it to all its rows, its
 * ledger and diagnostics (session IDs), stores `policy`, and leaves no file holding the old rows.
 */
export interface ArchiveRewrite {
  policy: RedactionPolicy;
  session(stored: StoredSession): Promise<StoredSession>;
  /** The new form of a stored session ID (ledger, diagnostics, parent references). */
  sessionId(id: string): string;
  /** The new form of an occurrence reference of a session whose ID changed. */
  occurrenceRef(ref: string): string;
}

export interface LoadResult {
  sessionId: string;
  action: LoadAction;
  /** The incoming view is ambiguous (divergent replicas), whatever was done with it. */
  ambiguous?: true;
  /** Set when two origins' complete views decided the action (`decideAcrossOrigins`). */
  originRule?: 'replace' | 'keep-newer' | 'diverged';
  /** For `keep-cursor-data`: the capture representations set aside and their view's fidelity. */
  setAside?: { representations: string[]; fidelity: string };
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
  /** Problems met while opening the target (damaged files set aside, no hard links), reported once by the run. */
  readonly openDiagnostics?: readonly Diagnostic[];
  /** Problems met while `finishRun` published (a refused hard link): already stored with the run's. */
  readonly publishDiagnostics?: readonly Diagnostic[];
  /** The redaction policy stored with the warehouse when it was opened, or null. */
  readonly redactionPolicy: RedactionPolicy | null;
  /** Rewrites the whole archive (before a run loads anything); returns the sessions rewritten. */
  rewriteArchive(rewrite: ArchiveRewrite): Promise<number>;
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
