/** The run's first step: settles redaction with the open warehouse and records the run as begun. */
import type { WarehouseTarget } from '../load/target.js';
import { canonicalHash } from '../shared/json/canonical-json.js';
import { IdentitySeal } from '../transform/redact/identity-seal.js';
import type { RedactionCounts } from '../transform/redact/redact-session.js';
import { RULESET_VERSION } from '../transform/redact/ruleset.js';
import { archiveRewrittenDiagnostic, defaultRedactionRequest, settleRedaction } from './redaction-gate.js';
import type { RunStart, RunState } from './run-state.js';

export async function beginRun(
  start: RunStart,
  opening: WarehouseTarget | Promise<WarehouseTarget>,
): Promise<RunState> {
  const { options } = start;
  const target = await opening;
  start.diagnostics.push(...(target.openDiagnostics ?? []));
  const rewriteCounts: RedactionCounts = {};
  const settled = await settleRedaction(
    target,
    options.redaction ?? defaultRedactionRequest(),
    rewriteCounts,
  );
  const job = settled.decision.job;
  if (settled.rewritten !== null)
    start.diagnostics.push(archiveRewrittenDiagnostic(settled.rewritten, rewriteCounts));
  // The walk's file bound decides which sources exist, not how one is read.
  const { captureInputFiles: _walkBound, ...readLimits } = options.limits;
  const readDigest = canonicalHash({
    limits: readLimits,
    prefer: options.preferredSource,
    includeCrossWorkspaceSources: options.includeCrossWorkspaceSources,
    // Omitted when off, so runs without redaction keep their earlier read digest; a new ruleset or
    // home-path policy makes every source read again.
    redact: job === null ? undefined : { ruleset: RULESET_VERSION, homePaths: job.homePaths },
  });
  await target.beginRun({
    runId: start.runId,
    startedAtMs: start.startedAtMs,
    mode: start.mode,
    optionsDigest: canonicalHash({ roots: options.roots, readDigest }),
    redaction: settled.decision.policy,
    origin: options.origin ?? null,
  });
  return Object.assign(start, {
    target,
    readDigest,
    job,
    seal: job === null ? null : new IdentitySeal(job.sealKey),
    // The scanner and its rule library load only for a run that redacts.
    redaction:
      job === null ? null : new (await import('../transform/redact/redact-session.js')).RunRedaction(),
  });
}
