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

export function tally(counts: RunCounts, results: readonly LoadResult[]): void {
  for (const { action } of results) {
    if (action === 'insert') counts.sessionsInserted++;
    else if (action === 'replace') counts.sessionsReplaced++;
    else if (action === 'unchanged') counts.sessionsUnchanged++;
    else if (action === 'keep-complete') counts.sessionsKeptComplete++;
    else counts.sessionsAmbiguous++;
  }
}
