/**
 * The hydrate step: reads each planned session's payloads one session at a time, resolves them in
 * the resolve pool, and hands them, in catalog order, to the batches.
 */
import { nothingLoadedError } from '../extract/capture/capture-rejection.js';
import { planByOwner } from '../extract/plan-by-owner.js';
import type { Contribution, SessionOccurrence, SourceAdapter } from '../extract/source-adapter.js';
import { faultPoint } from '../shared/fault-injection.js';
import { nextTurn } from '../shared/next-turn.js';
import {
  createSessionResolver,
  type ResolveOutcome,
  type SessionResolver,
} from '../transform/resolve/session-resolver.js';
import { isSourceReadError, SessionUnavailable } from '../transform/session-unavailable.js';
import {
  capturesOutsideScope,
  planScope,
  type RunScope,
  resolveRunScope,
} from '../transform/workspace/scope-plan.js';
import type { CatalogEntry } from './catalog-sources.js';
import type { Plan } from './plan-run.js';
import type { RunState } from './run-state.js';
import type { SessionBatches } from './session-batches.js';
import { groupOccurrences, type SessionGroup } from './session-groups.js';

interface InFlight {
  members: CatalogEntry[];
  bytesRead: number;
  outcome: Promise<ResolveOutcome>;
}

/** Takes the oldest submitted session into the batch, exactly where a sequential run would. */
async function take(run: RunState, inFlight: InFlight[], batches: SessionBatches): Promise<void> {
  const { members, bytesRead, outcome } = inFlight.shift()!;
  const resolved = await outcome;
  batches.taken(bytesRead);
  if ('unavailable' in resolved) {
    run.diagnostics.push(resolved.unavailable.diagnostic);
    run.unavailable ??= resolved.unavailable;
    return;
  }
  const { session, counts } = resolved;
  if (counts !== null) run.redaction!.record(counts);
  faultPoint('session-hydrated');
  run.diagnostics.push(...session.diagnostics);
  run.progress.sessionsDone++;
  run.emit();
  await batches.add(session, members);
}

/**
 * The session's contributions, or the session unavailable when one contributor's read failed on its
 * source's bytes (a corrupt page): it is not loaded, its archive stays, and the run goes on.
 */
async function hydrateGroup(
  sessionId: string,
  members: readonly CatalogEntry[],
  ctx: RunState['ctx'],
): Promise<Contribution[] | { unavailable: SessionUnavailable }> {
  const contributions: Contribution[] = [];
  for (const { adapter, occurrence } of members) {
    try {
      contributions.push(await adapter.hydrate(occurrence, ctx));
    } catch (error) {
      if (!isSourceReadError(error)) throw error;
      return {
        unavailable: SessionUnavailable.ofError(error, { sessionId, sourceRef: occurrence.occurrenceRef }),
      };
    }
  }
  return contributions;
}

/** Tells each adapter which of its occurrences the run hydrates, in the order it will. */
function planHydration(groups: readonly SessionGroup[], runScope: RunScope, crossWorkspace: boolean): void {
  const owners = new Map<string, SourceAdapter>();
  const occurrences: SessionOccurrence[] = [];
  for (const group of groups)
    for (const { adapter, occurrence } of planScope(group.members, runScope, crossWorkspace)?.hydrate ?? []) {
      owners.set(occurrence.sourceKey, adapter);
      occurrences.push(occurrence);
    }
  planByOwner(occurrences, (sourceKey) => owners.get(sourceKey));
}

/** Hydrates every planned session in scope; returns the run's workspace scope. */
export async function hydrateSessions(run: RunState, plan: Plan, batches: SessionBatches): Promise<RunScope> {
  const { options, ctx, progress, diagnostics, signal } = run;
  const { entries } = plan;
  const groups = groupOccurrences(entries);
  let resolver: SessionResolver | null = null;
  try {
    resolver =
      groups.length > 0
        ? await createSessionResolver(groups.length, {
            preferredSource: options.preferredSource,
            redaction: run.job,
          })
        : null;
    progress.phase = 'load';
    progress.sessionsTotal = groups.length;
    run.emit();
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
    for (const adapter of run.adapters) diagnostics.push(...(adapter.drainDiagnostics?.() ?? []));
    const refused = nothingLoadedError(diagnostics, entries.length + run.counts.sourcesSkippedUnchanged);
    if (refused) throw refused;
    // The catalog is released session by session as the load goes (each group is dropped once taken).
    entries.length = 0;
    planHydration(groups, runScope, options.includeCrossWorkspaceSources);
    const pending = groups.reverse();
    const inFlight: InFlight[] = [];
    if (signal.aborted) run.status = 'interrupted';
    while (run.status !== 'interrupted' && pending.length > 0) {
      const group = pending.pop()!;
      // Hydration resolves in microtasks; yielding to the event loop lets SIGINT/SIGTERM handlers run.
      await nextTurn();
      if (signal.aborted) {
        run.status = 'interrupted';
        break;
      }
      const scoped = planScope(group.members, runScope, options.includeCrossWorkspaceSources);
      if (scoped === null) continue;
      const read = await hydrateGroup(group.sessionId, scoped.hydrate, ctx);
      const outcome = Array.isArray(read) ? resolver!.resolve(read, scoped) : Promise.resolve(read);
      // Its error surfaces when it is taken, never as an unhandled rejection before.
      outcome.catch(() => undefined);
      inFlight.push({ members: group.members, bytesRead: ctx.counters.payloadBytes, outcome });
      while (inFlight.length > resolver!.window) await take(run, inFlight, batches);
    }
    // Sessions already read are taken even when interrupted, as a sequential run had taken them.
    while (inFlight.length > 0) await take(run, inFlight, batches);
    // What adapters learn only by hydrating (e.g. agentKv blobs no session linked).
    for (const adapter of run.adapters) diagnostics.push(...(adapter.drainDiagnostics?.() ?? []));
    return runScope;
  } finally {
    // The workers' memory is released before the last batch loads and the warehouse checkpoints.
    await resolver?.close();
  }
}
