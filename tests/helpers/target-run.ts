/** One run through the DuckDB target, as the pipeline drives it: begin, an optional batch, finish, close. */
import { DuckDbTarget } from '../../src/load/duckdb/duckdb-target.js';
import { emptyCounts } from '../../src/sync/run-counts.js';
import type { NormalizedSession } from '../../src/transform/normalized-session.js';

export async function runThroughTarget(
  path: string,
  runId: string,
  sessions: readonly NormalizedSession[],
  mode: 'full' | 'since-last' = 'full',
): Promise<void> {
  const target = await DuckDbTarget.open(path);
  try {
    await target.beginRun({ runId, startedAtMs: 0, mode, optionsDigest: 'o' });
    if (sessions.length > 0) await target.loadBatch(sessions);
    await target.finishRun(runId, 'committed', 1, emptyCounts());
  } finally {
    await target.close();
  }
}
