/**
 * The one state object an `etl run` carries through its steps: begin → plan → hydrate →
 * batch/load → finish (`run-pipeline.ts` composes them).
 */
import { randomUUID } from 'node:crypto';
import type { ReadLimits } from '../extract/limits/read-limits.js';
import { createReadContext } from '../extract/read-context.js';
import { createAdapters } from '../extract/registry.js';
import { type DataRoot, kindsUnder, missingRoots } from '../extract/root-presence.js';
import type { ReadContext, SourceAdapter, SourceRoots } from '../extract/source-adapter.js';
import type { RunCounts, WarehouseTarget } from '../load/target.js';
import { type Diagnostic, diagnostic } from '../shared/diagnostic.js';
import { PrivateTempDir } from '../shared/temp/private-temp-dir.js';
import type { IdentitySeal } from '../transform/redact/identity-seal.js';
import type { RunRedaction } from '../transform/redact/redact-session.js';
import type { RedactionJob } from '../transform/resolve/resolve-job.js';
import type { SessionUnavailable } from '../transform/session-unavailable.js';
import { OverlappedLoad } from './overlapped-load.js';
import type { RedactionRequest } from './redaction-gate.js';
import { emptyCounts } from './run-counts.js';
import type { RunProgress } from './run-progress.js';

export interface RunOptions {
  roots: SourceRoots;
  limits: ReadLimits;
  sinceLast: boolean;
  preferredSource: 'composer' | 'store';
  includeCrossWorkspaceSources: boolean;
  /** The `--workspace` argument, matched after catalog and before any payload read. */
  workspace?: string | null;
  /** What the caller asks of the warehouse's redaction policy (none: the stored policy applies). */
  redaction?: RedactionRequest;
  /** `--backup-may-replace`: backup views may replace complete views loaded from live sources. */
  backupMayReplace?: boolean;
  /** The origin stamped on every loaded session and on the run record (none: left NULL). */
  origin?: string | null;
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
}

export interface RunSummary {
  runId: string;
  status: 'committed' | 'interrupted';
  mode: 'full' | 'since-last';
  durationMs: number;
  counts: RunCounts;
  payloadBytesRead: number;
  payloadReads: number;
  diagnostics: Diagnostic[];
}

/** What a run holds before its warehouse is open. */
export interface RunStart {
  readonly options: RunOptions;
  readonly runId: string;
  readonly startedAtMs: number;
  readonly mode: RunSummary['mode'];
  readonly counts: RunCounts;
  readonly diagnostics: Diagnostic[];
  /** Kinds whose data root is missing: their sources are neither read nor concluded gone. */
  readonly unreadKinds: ReadonlySet<string>;
  readonly temp: PrivateTempDir;
  readonly signal: AbortSignal;
  readonly ctx: ReadContext;
  readonly adapters: readonly SourceAdapter[];
  readonly progress: RunProgress;
  readonly loads: OverlappedLoad;
  status: RunSummary['status'];
  /** The first session that could not be read safely: it fails the run once the others commit. */
  unavailable: SessionUnavailable | null;
  /** Reports `progress` to the caller. */
  emit(): void;
}

/** What the run settled with the open warehouse before reading anything. */
export interface RunWarehouse {
  readonly target: WarehouseTarget;
  readonly readDigest: string;
  readonly job: RedactionJob | null;
  readonly seal: IdentitySeal | null;
  readonly redaction: RunRedaction | null;
}

export type RunState = RunStart & RunWarehouse;

/** A default data root that does not exist: its sources are not read, nor concluded gone. */
function rootMissing(root: DataRoot): Diagnostic {
  return diagnostic(
    'SOURCE_ROOT_MISSING',
    'A Cursor data root does not exist; its sessions were neither read nor marked absent',
    { root },
  );
}

export function createRunState(options: RunOptions): RunStart {
  const startedAtMs = Date.now();
  const runId = `${new Date(startedAtMs).toISOString().replace(/[-:.]/g, '')}-${randomUUID().slice(0, 8)}`;
  const diagnostics: Diagnostic[] = [];
  const missing = missingRoots(options.roots);
  // A named root that is missing beside captures or backups means "no Cursor data": only warn when
  // the roots were the run's sources (a default root, or a named one that may be a typo).
  const rootsOnly = options.roots.inputs.length === 0 && options.roots.backups.length === 0;
  if (options.roots.carrier !== 'custom' || rootsOnly) diagnostics.push(...missing.map(rootMissing));
  const temp = PrivateTempDir.create();
  const signal = options.signal ?? new AbortController().signal;
  const ctx = createReadContext({ ...options, temp, signal });
  const progress: RunProgress = {
    phase: 'catalog',
    sourcesTotal: 0,
    sourcesDone: 0,
    sessionsTotal: 0,
    sessionsDone: 0,
    payloadBytes: 0,
  };
  return {
    options,
    runId,
    startedAtMs,
    mode: options.sinceLast ? 'since-last' : 'full',
    counts: emptyCounts(),
    diagnostics,
    unreadKinds: new Set(kindsUnder(missing)),
    temp,
    signal,
    ctx,
    adapters: createAdapters(),
    progress,
    loads: new OverlappedLoad(),
    status: 'committed',
    unavailable: null,
    emit: () => {
      progress.payloadBytes = ctx.counters.payloadBytes;
      options.onProgress?.({ ...progress });
    },
  };
}
