/** `etl run`: extract → transform → load into the target, with a summary on stdout. */
import { openTarget } from '../../load/open-target.js';
import { type RunSummary, runPipeline } from '../../sync/run-pipeline.js';
import type { Output } from '../output.js';
import { type RunFlags, resolveRunFlags } from '../run-options.js';

function humanSummary(summary: RunSummary): string {
  const c = summary.counts;
  return [
    `run ${summary.runId} ${summary.status} (${summary.mode}) in ${(summary.durationMs / 1000).toFixed(2)}s`,
    `  sources: ${c.sourcesSeen} seen, ${c.sourcesSkippedUnchanged} unchanged`,
    `  sessions: ${c.sessionsInserted} inserted, ${c.sessionsReplaced} replaced, ${c.sessionsUnchanged} unchanged, ` +
      `${c.sessionsKeptComplete} kept complete, ${c.sessionsAmbiguous} ambiguous`,
    `  diagnostics: ${c.diagnostics}; payload read: ${summary.payloadBytesRead} bytes`,
  ].join('\n');
}

export async function runCommand(flags: RunFlags, output: Output, signal: AbortSignal): Promise<number> {
  const { options, target: location } = resolveRunFlags(flags);
  const target = await openTarget(location);
  let summary: RunSummary;
  try {
    summary = await runPipeline({ ...options, signal }, target);
  } finally {
    await target.close();
  }
  const { diagnostics, ...rest } = summary;
  output.success({ run: rest }, humanSummary(summary), diagnostics);
  return summary.status === 'interrupted' ? 1 : 0;
}
