/**
 * `etl run`: take the single-writer lock, extract → transform → load into the target, and print a
 * summary (one line, or one JSON object with --json); a progress bar goes to a TTY stderr.
 */
import { acquireTargetLock, targetOpener } from '../../load/open-target.js';
import { guardWrite } from '../../load/write-failure.js';
import { withOutputPermissions } from '../../shared/output-permissions.js';
import { runPipeline } from '../../sync/run-pipeline.js';
import type { RunOptions, RunSummary } from '../../sync/run-state.js';
import { diagnosticDigest, type LookedAt } from '../diagnostic-digest.js';
import type { Output } from '../output.js';
import { createProgressBar } from '../progress/progress-bar.js';
import { type RunFlags, resolveRunFlags } from '../run-options.js';
import type { TargetSpec } from '../target-spec.js';

function oneLineSummary(summary: RunSummary): string {
  const c = summary.counts;
  return (
    `run ${summary.runId} ${summary.status} (${summary.mode}) in ${(summary.durationMs / 1000).toFixed(2)}s: ` +
    `sources ${c.sourcesSeen} seen/${c.sourcesSkippedUnchanged} unchanged; sessions ${c.sessionsInserted} inserted, ` +
    `${c.sessionsReplaced} replaced, ${c.sessionsUnchanged} unchanged, ${c.sessionsKeptComplete} kept complete, ` +
    `${c.sessionsAmbiguous} ambiguous, ${c.sessionsMarkedAbsent} newly absent; diagnostics ${c.diagnostics}; ` +
    `payload ${summary.payloadBytesRead} bytes`
  );
}

/** Default discovery's roots, so a missing one can say where the run looked. */
function lookedAt(options: RunOptions): LookedAt {
  const { roots } = options;
  if (roots.carrier !== 'live') return {};
  const places: Record<string, string> = {};
  if (roots.cursorUserDir !== null) places.cursorUserDir = roots.cursorUserDir;
  if (roots.cursorStoreRoot !== null) places.cursorStoreRoot = roots.cursorStoreRoot;
  return places;
}

/** Exit code of an interrupted run: the conventional 128 + signal number, else 1. */
function interruptedExit(signal: AbortSignal): number {
  if (signal.reason === 'SIGINT') return 130;
  if (signal.reason === 'SIGTERM') return 143;
  return 1;
}

export async function runCommand(flags: RunFlags, output: Output, signal: AbortSignal): Promise<number> {
  const { options, target: location, permissions } = await resolveRunFlags(flags);
  return withOutputPermissions(permissions, () => run(options, location, output, signal));
}

async function run(
  options: RunOptions,
  location: TargetSpec,
  output: Output,
  signal: AbortSignal,
): Promise<number> {
  const lock = await guardWrite(location.kind, 'lock', () => acquireTargetLock(location));
  const progress = !output.json && process.stderr.isTTY ? createProgressBar(process.stderr) : null;
  let summary: RunSummary;
  try {
    const open = await targetOpener(location);
    // The warehouse opens on DuckDB's threads while the pipeline discovers the sources on this one.
    const opening = open();
    let finished = false;
    try {
      summary = await runPipeline(
        { ...options, signal, ...(progress ? { onProgress: (p) => progress.update(p) } : {}) },
        opening,
      );
      finished = true;
    } finally {
      progress?.done();
      const target = await opening.catch(() => null);
      // A failed run reports its own error, not the one its close may meet on a broken connection.
      if (finished) await target?.close();
      else await target?.close().catch(() => undefined);
    }
  } finally {
    lock.release();
  }
  const { diagnostics, ...rest } = summary;
  const human = [oneLineSummary(summary), ...diagnosticDigest(diagnostics, lookedAt(options))].join('\n');
  output.success({ run: rest }, human, diagnostics);
  return summary.status === 'interrupted' ? interruptedExit(signal) : 0;
}
