/** The plan step: what to read, everything (full) or only what the ledger cannot vouch for (since-last). */
import { hasVanished } from '../load/sync-ledger.js';
import { canonicalHash } from '../shared/json/canonical-json.js';
import { type CatalogEntry, catalogSources, type FoundSource } from './catalog-sources.js';
import { RunCheckpoints } from './ledger/checkpoint-registry.js';
import { affectedSessions, classifySource, type SourceClassification } from './ledger/since-last-plan.js';
import { sealCatalog } from './redaction-gate.js';
import type { RunState } from './run-state.js';

export interface Plan {
  classified: SourceClassification[];
  entries: CatalogEntry[];
  fullyRead: Map<string, Set<string>>;
  checkpoints: RunCheckpoints;
}

/**
 * Sessions archived with an occurrence in a source this run could not read (a damaged DB, a failed
 * catalog, an index past a bound): their archived views stay, never rebuilt without that source.
 */
async function heldByUnread(run: RunState): Promise<Set<string>> {
  const held = new Set<string>();
  const { ledger } = run.target;
  if (ledger === undefined) return held;
  for (const sourceKey of run.ctx.unreadSources?.keys() ?? [])
    for (const member of await ledger.readMemberships(sourceKey)) held.add(member.sessionId);
  return held;
}

async function catalogPlan(run: RunState, discovery: Promise<FoundSource[]>): Promise<Plan> {
  const { options, target, ctx, progress, emit, seal, readDigest } = run;
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
  // Sources the ledger vouches for in part: only their changed sessions are read.
  if (incremental) {
    const known = classified.filter((c) => c.state === 'changed' || c.state === 'unchanged');
    ctx.readInPlace = new Set(known.map((c) => c.found.source.sourceKey));
    ctx.contentCompared = new Set(
      classified.filter((c) => c.state === 'changed').map((c) => c.found.source.sourceKey),
    );
  }
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
    const held = await heldByUnread(run);
    const entries = [...bySource.values()].flat().filter((e) => !held.has(e.occurrence.sessionId));
    return { classified, entries, fullyRead, checkpoints };
  }
  const scope = {
    rootsDigest: canonicalHash(options.roots),
    discovered: new Set(found.map((f) => f.source.sourceKey)),
    unreadKinds: run.unreadKinds,
    unreadSources: new Set(ctx.unreadSources?.keys() ?? []),
  };
  const vanished = [...prior.values()]
    .filter((p) => hasVanished(p.sourceKey, p, scope))
    .map((p) => p.sourceKey);
  const affected = await affectedSessions(target.ledger, toRead, bySource, vanished, scope.unreadSources);
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
  // After the extra catalog: a source it could not read holds its sessions too.
  const held = await heldByUnread(run);
  const entries = [...bySource.values(), ...extraEntries.values()]
    .flat()
    .filter((e) => affected.has(e.occurrence.sessionId) && !held.has(e.occurrence.sessionId));
  return { classified, entries, fullyRead, checkpoints };
}

/** Catalogs what the run will read and counts the sources it saw and skipped. */
export async function planRun(run: RunState, discovery: Promise<FoundSource[]>): Promise<Plan> {
  const plan = await catalogPlan(run, discovery);
  run.diagnostics.push(...(run.ctx.diagnostics?.items ?? []));
  run.counts.sourcesSeen = plan.classified.length;
  run.counts.sourcesSkippedUnchanged = run.options.sinceLast
    ? plan.classified.filter((c) => c.state === 'unchanged').length
    : 0;
  return plan;
}
