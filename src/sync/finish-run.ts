/** The finish step: the ledger's conclusions ride on the last batch, then the run is recorded. */
import type { LedgerFinal } from '../load/sync-ledger.js';
import { faultPoint } from '../shared/fault-injection.js';
import { canonicalHash } from '../shared/json/canonical-json.js';
import type { RunScope } from '../transform/workspace/scope-plan.js';
import type { Plan } from './plan-run.js';
import type { RunState } from './run-state.js';
import type { SessionBatches } from './session-batches.js';

/**
 * The ledger advances only after a complete, unscoped read. A filter that matched nothing read
 * nothing, so it cannot vouch for any source either. A source that could not be read, when none
 * fails the run, keeps its stored row and memberships while every source that was read advances.
 */
export function ledgerFinal(run: RunState, plan: Plan, runScope: RunScope): LedgerFinal | undefined {
  const unread = run.ctx.unreadSources;
  const complete =
    run.status === 'committed' &&
    run.ctx.scope === null &&
    runScope.kind === 'all' &&
    run.unavailable === null &&
    unread !== undefined &&
    ![...unread.values()].some((u) => u.failsRun);
  if (!complete) return undefined;
  const read = (sourceKey: string): boolean => !unread.has(sourceKey);
  return {
    rootsDigest: canonicalHash(run.options.roots),
    optionsDigest: run.readDigest,
    sources: plan.classified
      .filter((c) => read(c.found.source.sourceKey))
      .map((c) => ({
        sourceKey: c.found.source.sourceKey,
        kind: c.found.source.kind,
        fingerprint: c.found.source.fingerprint,
        fingerprintDigest: c.fingerprintDigest,
        changed: c.state !== 'unchanged',
        // A prefix checkpoint hashes source bytes: a redacted warehouse keeps none.
        checkpoint:
          run.job === null
            ? plan.checkpoints.forLedger(c.found.source.sourceKey, c.state === 'unchanged')
            : null,
      })),
    fullyRead: unread.size === 0 ? plan.fullyRead : new Map([...plan.fullyRead].filter(([key]) => read(key))),
    concludeVanished: true,
    unreadKinds: run.unreadKinds,
    unreadSources: new Set(unread.keys()),
    outcome: { markedAbsent: 0 },
  };
}

/** Loads the last batch with `final`, records the diagnostics and the run's end. */
export async function finishRun(
  run: RunState,
  batches: SessionBatches,
  final: LedgerFinal | undefined,
): Promise<void> {
  const { counts, diagnostics } = run;
  await batches.flush(final);
  await run.loads.settle();
  if (run.redaction) diagnostics.push(run.redaction.diagnostic());
  counts.sessionsMarkedAbsent = final?.outcome.markedAbsent ?? 0;
  counts.diagnostics = diagnostics.length;
  await run.target.recordDiagnostics(run.runId, diagnostics);
  faultPoint('diagnostics-recorded');
  await run.target.finishRun(run.runId, run.status, Date.now(), counts, run.ctx.counters.payloadBytes);
  diagnostics.push(...(run.target.publishDiagnostics ?? []));
  counts.diagnostics = diagnostics.length;
  faultPoint('run-finished');
  // Other sessions are committed; a session that could not be read safely fails the run (exit 4).
  if (run.unavailable !== null) throw run.unavailable;
}
