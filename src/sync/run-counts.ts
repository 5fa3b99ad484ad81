/** The counters a run reports and stores in `etl_runs`. */
import type { LoadResult, RunCounts } from '../load/target.js';

export function emptyCounts(): RunCounts {
  return {
    sourcesSeen: 0,
    sourcesSkippedUnchanged: 0,
    sessionsInserted: 0,
    sessionsReplaced: 0,
    sessionsUnchanged: 0,
    sessionsKeptComplete: 0,
    sessionsAmbiguous: 0,
    sessionsMarkedAbsent: 0,
    diagnostics: 0,
  };
}

/**
 * `sessionsAmbiguous` counts every session met as ambiguous, as the stored ambiguity rows do: a new
 * one is inserted as an ambiguity row, an archived one is kept.
 */
export function tally(counts: RunCounts, results: readonly LoadResult[]): void {
  for (const { action, ambiguous } of results) {
    if (ambiguous === true || action === 'keep-ambiguous') counts.sessionsAmbiguous++;
    if (action === 'insert') counts.sessionsInserted++;
    else if (action === 'replace') counts.sessionsReplaced++;
    else if (action === 'unchanged') counts.sessionsUnchanged++;
    else if (action === 'keep-complete' || action === 'keep-cursor-data') counts.sessionsKeptComplete++;
  }
}
