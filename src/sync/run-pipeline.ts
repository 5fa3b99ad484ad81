/**
 * The orchestrator of one `etl run`: discover → catalog → group by session → hydrate one session
 * at a time → resolve → load in batches → record the run. Memory holds the catalog (small per
 * session) and one batch of sessions, never the corpus.
 */
import { randomUUID } from 'node:crypto';
import { PrivateTempDir } from '../extract/fs/private-temp-dir.js';
import type { ReadLimits } from '../extract/limits/read-limits.js';
import { ReadCounters } from '../extract/read-counters.js';
import { createAdapters } from '../extract/registry.js';
import type {
  Contribution,
  ReadContext,
  SessionOccurrence,
  SourceAdapter,
  SourceRoots,
} from '../extract/source-adapter.js';
import type { LoadResult, RunCounts, WarehouseTarget } from '../load/target.js';
import type { Diagnostic } from '../shared/diagnostic.js';
import { canonicalHash } from '../transform/canonical-json.js';
import type { NormalizedSession } from '../transform/normalized-session.js';
import { resolveSession } from '../transform/resolve-session.js';
import { SessionUnavailable } from '../transform/session-unavailable.js';
import { planScope, resolveRunScope } from '../transform/workspace/scope-plan.js';
import { groupOccurrences } from './session-groups.js';

export interface RunOptions {
  roots: SourceRoots;
  limits: ReadLimits;
  sinceLast: boolean;
  preferredSource: 'composer' | 'store';
  includeCrossWorkspaceSources: boolean;
  /** The `--workspace` argument, matched after catalog and before any payload read. */
  workspace?: string | null;
  signal?: AbortSignal;
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

const BATCH_SESSIONS = 200;
const BATCH_ROWS = 50_000;

function emptyCounts(): RunCounts {
  return {
    sourcesSeen: 0,
    sourcesSkippedUnchanged: 0,
    sessionsInserted: 0,
    sessionsReplaced: 0,
    sessionsUnchanged: 0,
    sessionsKeptComplete: 0,
    sessionsAmbiguous: 0,
    diagnostics: 0,
  };
}

function tally(counts: RunCounts, results: readonly LoadResult[]): void {
  for (const { action } of results) {
    if (action === 'insert') counts.sessionsInserted++;
    else if (action === 'replace') counts.sessionsReplaced++;
    else if (action === 'unchanged') counts.sessionsUnchanged++;
    else if (action === 'keep-complete') counts.sessionsKeptComplete++;
    else counts.sessionsAmbiguous++;
  }
}

export async function runPipeline(options: RunOptions, target: WarehouseTarget): Promise<RunSummary> {
  const started = Date.now();
  const runId = `${new Date(started).toISOString().replace(/[-:.]/g, '')}-${randomUUID().slice(0, 8)}`;
  const mode = options.sinceLast ? 'since-last' : 'full';
  const counts = emptyCounts();
  const diagnostics: Diagnostic[] = [];
  const temp = PrivateTempDir.create();
  const signal = options.signal ?? new AbortController().signal;
  const ctx: ReadContext = {
    limits: options.limits,
    temp,
    counters: new ReadCounters(),
    scope: null,
    includeCrossWorkspaceSources: options.includeCrossWorkspaceSources,
    signal,
  };
  const adapters = createAdapters();
  let status: RunSummary['status'] = 'committed';
  await target.beginRun({
    runId,
    startedAtMs: started,
    mode,
    optionsDigest: canonicalHash({
      roots: options.roots,
      limits: options.limits,
      prefer: options.preferredSource,
    }),
  });
  try {
    const entries: { adapter: SourceAdapter; occurrence: SessionOccurrence }[] = [];
    for (const adapter of adapters) {
      for (const source of await adapter.discover(options.roots, ctx)) {
        counts.sourcesSeen++;
        for await (const occurrence of adapter.catalog(source, ctx)) entries.push({ adapter, occurrence });
      }
    }
    const runScope = resolveRunScope(
      options.workspace ?? null,
      entries.map((e) => e.occurrence),
      diagnostics,
    );
    if (runScope.kind === 'workspace') ctx.scope = runScope.scope;
    let unavailable: SessionUnavailable | null = null;
    let batch: NormalizedSession[] = [];
    let batchRows = 0;
    const flush = async (): Promise<void> => {
      tally(counts, await target.loadBatch(batch));
      batch = [];
      batchRows = 0;
    };
    for (const group of groupOccurrences(entries)) {
      if (signal.aborted) {
        status = 'interrupted';
        break;
      }
      const plan = planScope(group.members, runScope, options.includeCrossWorkspaceSources);
      if (plan === null) continue;
      const contributions: Contribution[] = [];
      for (const { adapter, occurrence } of plan.hydrate)
        contributions.push(await adapter.hydrate(occurrence, ctx));
      let session: NormalizedSession;
      try {
        session = resolveSession(contributions, { preferredSource: options.preferredSource, scope: plan });
      } catch (error) {
        if (!(error instanceof SessionUnavailable)) throw error;
        diagnostics.push(error.diagnostic);
        unavailable ??= error;
        continue;
      }
      diagnostics.push(...session.diagnostics);
      batch.push(session);
      batchRows += session.messages.length + session.toolCalls.length + 1;
      if (batch.length >= BATCH_SESSIONS || batchRows >= BATCH_ROWS) await flush();
    }
    await flush();
    counts.diagnostics = diagnostics.length;
    await target.recordDiagnostics(runId, diagnostics);
    await target.finishRun(runId, status, Date.now(), counts);
    // Other sessions are committed; a session that could not be read safely fails the run (exit 4).
    if (unavailable !== null) throw unavailable;
  } catch (error) {
    if (error instanceof SessionUnavailable) throw error;
    await target.finishRun(runId, 'failed', Date.now(), counts).catch(() => undefined);
    throw error;
  } finally {
    for (const adapter of adapters) adapter.close();
    temp.dispose();
  }
  return {
    runId,
    status,
    mode,
    durationMs: Date.now() - started,
    counts,
    payloadBytesRead: ctx.counters.payloadBytes,
    payloadReads: ctx.counters.payloadReads,
    diagnostics,
  };
}
