/**
 * The orchestrator of one `etl run`: discover → begin → plan (from the ledger) → hydrate one
 * session at a time → load in batches → finish. Memory holds the catalog (small per session) and
 * two batches of sessions: one loading on DuckDB's threads while the next is read.
 */
import type { WarehouseTarget } from '../load/target.js';
import { faultPoint } from '../shared/fault-injection.js';
import { SessionUnavailable } from '../transform/session-unavailable.js';
import { beginRun } from './begin-run.js';
import { discoverSources } from './catalog-sources.js';
import { finishRun, ledgerFinal } from './finish-run.js';
import { hydrateSessions } from './hydrate-sessions.js';
import { planRun } from './plan-run.js';
import {
  createRunState,
  type RunOptions,
  type RunStart,
  type RunState,
  type RunSummary,
} from './run-state.js';
import { SessionBatches } from './session-batches.js';

/** A backup's discovery extracts into the temp dir: it settles before the dir is removed. */
async function closeReads(discovery: Promise<unknown>, start: RunStart): Promise<void> {
  await discovery.catch(() => undefined);
  for (const adapter of start.adapters) adapter.close();
  start.temp.dispose();
}

/** `opening` may still be opening: discovery overlaps it, and its error comes first. */
export async function runPipeline(
  options: RunOptions,
  opening: WarehouseTarget | Promise<WarehouseTarget>,
): Promise<RunSummary> {
  const start = createRunState(options);
  // Discovery never touches the warehouse, so it runs while the warehouse opens; a discovery error is
  // handled here and rethrown by the plan, after the run is recorded.
  const discovery = discoverSources(start.adapters, options.roots, start.ctx);
  discovery.catch(() => undefined);
  let run: RunState;
  try {
    run = await beginRun(start, opening);
  } catch (error) {
    await closeReads(discovery, start);
    throw error;
  }
  faultPoint('run-begun');
  try {
    const plan = await planRun(run, discovery);
    for (const adapter of run.adapters) adapter.planFinal?.();
    // An unread source that fails the run (the global Composer DB, a failed catalog) keeps its archived
    // sessions and fails it once the rest is committed.
    for (const [sourceKey, unread] of run.ctx.unreadSources ?? [])
      if (unread.failsRun) run.unavailable ??= SessionUnavailable.ofSource(sourceKey, unread.failure);
    const batches = new SessionBatches(run, plan);
    const runScope = await hydrateSessions(run, plan, batches);
    for (const adapter of run.adapters) adapter.endReads?.();
    await finishRun(run, batches, ledgerFinal(run, plan, runScope));
  } catch (error) {
    // A failed read must not leave a batch's transaction open under the run record's update.
    await run.loads.settle().catch(() => undefined);
    if (error instanceof SessionUnavailable) throw error;
    await run.target
      .finishRun(run.runId, 'failed', Date.now(), run.counts, run.ctx.counters.payloadBytes)
      .catch(() => undefined);
    throw error;
  } finally {
    await closeReads(discovery, run);
  }
  return {
    runId: run.runId,
    status: run.status,
    mode: run.mode,
    durationMs: Date.now() - run.startedAtMs,
    counts: run.counts,
    payloadBytesRead: run.ctx.counters.payloadBytes,
    payloadReads: run.ctx.counters.payloadReads,
    diagnostics: run.diagnostics,
  };
}
