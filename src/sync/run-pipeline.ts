/**
 * The orchestrator of one `etl run`: discover → (plan from the ledger) → catalog → group by session
 * → hydrate one session at a time → resolve → load in batches → advance the ledger with the last
 * batch → record the run. Memory holds the catalog (small per session) and two batches of sessions:
 * one loading on DuckDB's threads while the next is read.
 */
import { randomUUID } from 'node:crypto';
import { nothingLoadedError } from '../extract/capture/capture-rejection.js';
import type { ReadLimits } from '../extract/limits/read-limits.js';
import { createReadContext } from '../extract/read-context.js';
import { createAdapters } from '../extract/registry.js';
import { type DataRoot, kindsUnder, missingRoots } from '../extract/root-presence.js';
import type { Contribution, ReadContext, SourceAdapter, SourceRoots } from '../extract/source-adapter.js';
import { hasVanished, type LedgerFinal, type Membership } from '../load/sync-ledger.js';
import type { RunCounts, WarehouseTarget } from '../load/target.js';
import { type Diagnostic, diagnostic } from '../shared/diagnostic.js';
import { faultPoint } from '../shared/fault-injection.js';
import { canonicalHash } from '../shared/json/canonical-json.js';
import { PrivateTempDir } from '../shared/temp/private-temp-dir.js';
import type { NormalizedSession } from '../transform/normalized-session.js';
import { IdentitySeal } from '../transform/redact/identity-seal.js';
import { type RedactionCounts, RunRedaction } from '../transform/redact/redact-session.js';
import { RULESET_VERSION } from '../transform/redact/ruleset.js';
import type { RedactionJob } from '../transform/resolve/resolve-job.js';
import {
  createSessionResolver,
  type ResolveOutcome,
  type SessionResolver,
} from '../transform/resolve/session-resolver.js';
import { SessionUnavailable } from '../transform/session-unavailable.js';
import { capturesOutsideScope, planScope, resolveRunScope } from '../transform/workspace/scope-plan.js';
import { type CatalogEntry, catalogSources, discoverSources, type FoundSource } from './catalog-sources.js';
import { RunCheckpoints } from './ledger/checkpoint-registry.js';
import { affectedSessions, classifySource, type SourceClassification } from './ledger/since-last-plan.js';
import { keptSessionDiagnostics } from './load-diagnostics.js';
import { OverlappedLoad } from './overlapped-load.js';
import {
  archiveRewrittenDiagnostic,
  defaultRedactionRequest,
  type RedactionRequest,
  sealCatalog,
  settleRedaction,
} from './redaction-gate.js';
import { emptyCounts, tally } from './run-counts.js';
import { holdHeapNearLiveSize } from './run-heap.js';
import type { RunProgress } from './run-progress.js';
import { groupOccurrences } from './session-groups.js';

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

const BATCH_SESSIONS = 200;
const BATCH_ROWS = 50_000;
// A batch is held in memory twice (JS rows, then DuckDB's transaction); bounding it by payload bytes
// keeps peak RSS flat whatever the session sizes (200 average sessions were ~45 MB of payload).
const BATCH_PAYLOAD_BYTES = 8 * 1024 * 1024;

interface Plan {
  classified: SourceClassification[];
  entries: CatalogEntry[];
  fullyRead: Map<string, Set<string>>;
  checkpoints: RunCheckpoints;
}

/** Decides what to read: everything (full), or only what the ledger cannot vouch for (since-last). */
async function plan(
  discovery: Promise<FoundSource[]>,
  options: RunOptions,
  target: WarehouseTarget,
  ctx: ReadContext,
  readDigest: string,
  unreadKinds: ReadonlySet<string>,
  progress: RunProgress,
  emit: () => void,
  seal: IdentitySeal | null,
): Promise<Plan> {
  const found = await discovery;
  const prior = target.ledger ? await target.ledger.readSources() : null;
  const checkpoints = new RunCheckpoints(prior ?? new Map());
  ctx.checkpoints = checkpoints;
  const classified = found.map((f) => {
    const fingerprintDigest = canonicalHash(f.source.fingerprint);
    const state =
      prior === null ? 'new' : classifySource(fingerprintDigest, prior.get(f.source.sourceKey), readDigest);
    return { found: f, fingerprintDigest, state } satisfies SourceClassification;
  });
  progress.sourcesTotal = found.length;
  emit();
  const incremental = options.sinceLast && prior !== null;
  const toRead = incremental ? classified.filter((c) => c.state !== 'unchanged') : classified;
  const sourceDone = (): void => {
    progress.sourcesDone++;
    emit();
  };
  const bySource = sealCatalog(
    await catalogSources(
      toRead.map((c) => c.found),
      ctx,
      undefined,
      sourceDone,
    ),
    seal,
  );
  const fullyRead = new Map<string, Set<string>>();
  for (const [key, list] of bySource) fullyRead.set(key, new Set(list.map((e) => e.occurrence.sessionId)));
  if (!incremental || prior === null || target.ledger === undefined) {
    return { classified, entries: [...bySource.values()].flat(), fullyRead, checkpoints };
  }
  const scope = {
    rootsDigest: canonicalHash(options.roots),
    discovered: new Set(found.map((f) => f.source.sourceKey)),
    unreadKinds,
  };
  const vanished = [...prior.values()]
    .filter((p) => hasVanished(p.sourceKey, p, scope))
    .map((p) => p.sourceKey);
  const affected = await affectedSessions(target.ledger, toRead, bySource, vanished);
  // Affected sessions may also hold occurrences in unchanged sources: catalog those (metadata only).
  const dependsOn = new Set([...(await target.ledger.sourcesOfSessions([...affected])).values()].flat());
  const extra = classified.filter((c) => c.state === 'unchanged' && dependsOn.has(c.found.source.sourceKey));
  const extraEntries = sealCatalog(
    await catalogSources(
      extra.map((c) => c.found),
      ctx,
      (o) => affected.has(seal === null ? o.sessionId : seal.sealId(o.sessionId)),
      sourceDone,
    ),
    seal,
  );
  for (const c of classified)
    if (c.state === 'unchanged' && !dependsOn.has(c.found.source.sourceKey)) sourceDone();
  const entries = [...bySource.values(), ...extraEntries.values()]
    .flat()
    .filter((e) => affected.has(e.occurrence.sessionId));
  return { classified, entries, fullyRead, checkpoints };
}

/** A backup's discovery extracts into the temp dir: it settles before the dir is removed. */
async function closeReads(
  discovery: Promise<unknown>,
  adapters: readonly SourceAdapter[],
  temp: PrivateTempDir,
): Promise<void> {
  await discovery.catch(() => undefined);
  for (const adapter of adapters) adapter.close();
  temp.dispose();
}

/** A default data root that does not exist: its sources are not read, nor concluded gone. */
function rootMissing(root: DataRoot): Diagnostic {
  return diagnostic(
    'SOURCE_ROOT_MISSING',
    'A Cursor data root does not exist; its sessions were neither read nor marked absent',
    { root },
  );
}

function membershipsOf(entries: readonly CatalogEntry[]): Membership[] {
  return entries.map(({ occurrence }) => ({
    sessionId: occurrence.sessionId,
    sourceKey: occurrence.sourceKey,
    occurrenceRef: occurrence.occurrenceRef,
    sessionFingerprint: occurrence.sessionFingerprint ?? null,
  }));
}

/** `opening` may still be opening: discovery overlaps it, and its error comes first, as before. */
export async function runPipeline(
  options: RunOptions,
  opening: WarehouseTarget | Promise<WarehouseTarget>,
): Promise<RunSummary> {
  // Before the first payload is read, so the heap never sizes itself after the corpus.
  holdHeapNearLiveSize();
  const started = Date.now();
  const runId = `${new Date(started).toISOString().replace(/[-:.]/g, '')}-${randomUUID().slice(0, 8)}`;
  const mode = options.sinceLast ? 'since-last' : 'full';
  const counts = emptyCounts();
  const diagnostics: Diagnostic[] = [];
  const missing = missingRoots(options.roots);
  const unreadKinds = new Set(kindsUnder(missing));
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
  const emit = (): void => {
    progress.payloadBytes = ctx.counters.payloadBytes;
    options.onProgress?.({ ...progress });
  };
  const adapters = createAdapters();
  let status: RunSummary['status'] = 'committed';
  let resolver: SessionResolver | null = null;
  const loads = new OverlappedLoad();
  // Discovery never touches the warehouse, so it runs while the warehouse opens; a discovery error is
  // handled here and rethrown by plan, after the run is recorded, as when discovery followed the open.
  const discovery = discoverSources(adapters, options.roots, ctx);
  discovery.catch(() => undefined);
  let target: WarehouseTarget;
  let readDigest: string;
  let redaction: RunRedaction | null = null;
  let job: RedactionJob | null = null;
  let seal: IdentitySeal | null = null;
  try {
    target = await opening;
    const rewriteCounts: RedactionCounts = {};
    const settled = await settleRedaction(
      target,
      options.redaction ?? defaultRedactionRequest(),
      rewriteCounts,
    );
    job = settled.decision.job;
    if (settled.rewritten !== null)
      diagnostics.push(archiveRewrittenDiagnostic(settled.rewritten, rewriteCounts));
    if (job !== null) {
      redaction = new RunRedaction();
      seal = new IdentitySeal(job.sealKey);
    }
    readDigest = canonicalHash({
      limits: options.limits,
      prefer: options.preferredSource,
      includeCrossWorkspaceSources: options.includeCrossWorkspaceSources,
      // Omitted when off, so runs without redaction keep their earlier read digest; a new ruleset or
      // home-path policy makes every source read again.
      redact: job === null ? undefined : { ruleset: RULESET_VERSION, homePaths: job.homePaths },
    });
    await target.beginRun({
      runId,
      startedAtMs: started,
      mode,
      optionsDigest: canonicalHash({ roots: options.roots, readDigest }),
      redaction: settled.decision.policy,
    });
  } catch (error) {
    await closeReads(discovery, adapters, temp);
    throw error;
  }
  faultPoint('run-begun');
  try {
    const { classified, entries, fullyRead, checkpoints } = await plan(
      discovery,
      options,
      target,
      ctx,
      readDigest,
      unreadKinds,
      progress,
      emit,
      seal,
    );
    diagnostics.push(...(ctx.diagnostics?.items ?? []));
    counts.sourcesSeen = classified.length;
    counts.sourcesSkippedUnchanged = options.sinceLast
      ? classified.filter((c) => c.state === 'unchanged').length
      : 0;
    const discoveredSourceKeys = new Set(classified.map((c) => c.found.source.sourceKey));
    const groups = groupOccurrences(entries);
    resolver =
      groups.length > 0
        ? await createSessionResolver(groups.length, {
            preferredSource: options.preferredSource,
            redaction: job,
          })
        : null;
    progress.phase = 'load';
    progress.sessionsTotal = groups.length;
    emit();
    const runScope = resolveRunScope(
      options.workspace ?? null,
      entries.map((e) => e.occurrence),
      diagnostics,
    );
    if (runScope.kind === 'workspace') ctx.scope = runScope.scope;
    const skippedCaptures = capturesOutsideScope(
      runScope,
      entries.map((e) => e.occurrence),
    );
    if (skippedCaptures !== null) diagnostics.push(skippedCaptures);
    let unavailable: SessionUnavailable | null = null;
    for (const adapter of adapters) diagnostics.push(...(adapter.drainDiagnostics?.() ?? []));
    const refused = nothingLoadedError(diagnostics, entries.length + counts.sourcesSkippedUnchanged);
    if (refused) throw refused;
    // The catalog is released session by session as the load goes (each group is dropped once
    // taken): held whole until the run ended, 10,000 sessions kept ~20 MB of it.
    entries.length = 0;
    const pending = groups.reverse();
    let batch: NormalizedSession[] = [];
    let memberships = new Map<string, Membership[]>();
    let batchRows = 0;
    // Payload bytes read up to the last session taken: hydration may run ahead of resolution.
    let takenBytes = ctx.counters.payloadBytes;
    let batchStartBytes = takenBytes;
    // Starts loading the batch (after the previous load finished) and returns while it loads.
    const flush = (final?: LedgerFinal): Promise<void> => {
      const sessions = batch;
      const ledger = { runId, memberships, discoveredSourceKeys, ...(final ? { final } : {}) };
      batch = [];
      memberships = new Map();
      batchRows = 0;
      batchStartBytes = takenBytes;
      return loads.start(async () => {
        // Kept-session diagnostics go where a sequential load would have put them.
        const at = diagnostics.length;
        const results = await target.loadBatch(sessions, ledger, {
          backupMayReplace: options.backupMayReplace ?? false,
        });
        tally(counts, results);
        diagnostics.splice(at, 0, ...keptSessionDiagnostics(results));
      });
    };
    const inFlight: { members: CatalogEntry[]; bytesRead: number; outcome: Promise<ResolveOutcome> }[] = [];
    // Takes the oldest submitted session into the batch, exactly where a sequential run would.
    const take = async (): Promise<void> => {
      const { members, bytesRead, outcome } = inFlight.shift()!;
      const resolved = await outcome;
      takenBytes = bytesRead;
      if ('unavailable' in resolved) {
        diagnostics.push(resolved.unavailable.diagnostic);
        unavailable ??= resolved.unavailable;
        return;
      }
      const { session, counts } = resolved;
      if (counts !== null) redaction!.record(counts);
      faultPoint('session-hydrated');
      diagnostics.push(...session.diagnostics);
      batch.push(session);
      memberships.set(session.session.session_id, membershipsOf(members));
      batchRows += session.messages.length + session.toolCalls.length + 1;
      progress.sessionsDone++;
      emit();
      const batchBytes = bytesRead - batchStartBytes;
      if (batch.length >= BATCH_SESSIONS || batchRows >= BATCH_ROWS || batchBytes >= BATCH_PAYLOAD_BYTES)
        await flush();
    };
    if (signal.aborted) status = 'interrupted';
    while (status !== 'interrupted' && pending.length > 0) {
      const group = pending.pop()!;
      // Hydration resolves in microtasks; yielding to the event loop lets SIGINT/SIGTERM handlers run.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal.aborted) {
        status = 'interrupted';
        break;
      }
      const plan = planScope(group.members, runScope, options.includeCrossWorkspaceSources);
      if (plan === null) continue;
      const contributions: Contribution[] = [];
      for (const { adapter, occurrence } of plan.hydrate)
        contributions.push(await adapter.hydrate(occurrence, ctx));
      const outcome = resolver!.resolve(contributions, plan);
      // Its error surfaces when it is taken, never as an unhandled rejection before.
      outcome.catch(() => undefined);
      inFlight.push({ members: group.members, bytesRead: ctx.counters.payloadBytes, outcome });
      while (inFlight.length > resolver!.window) await take();
    }
    // Sessions already read are taken even when interrupted, as a sequential run had taken them.
    while (inFlight.length > 0) await take();
    // The workers' memory is released before the last batch loads and the warehouse checkpoints.
    await resolver?.close();
    // The ledger advances only after a complete, unscoped read, in the transaction of the last batch.
    // A filter that matched nothing read nothing, so it cannot vouch for any source either.
    const complete =
      status === 'committed' && ctx.scope === null && runScope.kind === 'all' && unavailable === null;
    const final: LedgerFinal | undefined = complete
      ? {
          rootsDigest: canonicalHash(options.roots),
          optionsDigest: readDigest,
          sources: classified.map((c) => ({
            sourceKey: c.found.source.sourceKey,
            kind: c.found.source.kind,
            fingerprint: c.found.source.fingerprint,
            fingerprintDigest: c.fingerprintDigest,
            changed: c.state !== 'unchanged',
            // A prefix checkpoint hashes source bytes: a redacted warehouse keeps none.
            checkpoint:
              job === null ? checkpoints.forLedger(c.found.source.sourceKey, c.state === 'unchanged') : null,
          })),
          fullyRead,
          concludeVanished: true,
          unreadKinds,
          outcome: { markedAbsent: 0 },
        }
      : undefined;
    await flush(final);
    await loads.settle();
    if (redaction) diagnostics.push(redaction.diagnostic());
    counts.sessionsMarkedAbsent = final?.outcome.markedAbsent ?? 0;
    counts.diagnostics = diagnostics.length;
    await target.recordDiagnostics(runId, diagnostics);
    faultPoint('diagnostics-recorded');
    await target.finishRun(runId, status, Date.now(), counts, ctx.counters.payloadBytes);
    faultPoint('run-finished');
    // Other sessions are committed; a session that could not be read safely fails the run (exit 4).
    if (unavailable !== null) throw unavailable;
  } catch (error) {
    // A failed read must not leave a batch's transaction open under the run record's update.
    await loads.settle().catch(() => undefined);
    if (error instanceof SessionUnavailable) throw error;
    await target
      .finishRun(runId, 'failed', Date.now(), counts, ctx.counters.payloadBytes)
      .catch(() => undefined);
    throw error;
  } finally {
    await resolver?.close();
    await closeReads(discovery, adapters, temp);
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
