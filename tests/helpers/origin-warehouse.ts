/** Writes a machine's warehouse in-process, as its own `etl run --origin NAME` would. */
import { randomUUID } from 'node:crypto';
import { type TargetLocation, targetOpener } from '../../src/load/open-target.js';
import { emptyCounts } from '../../src/sync/run-counts.js';
import type { NormalizedSession } from '../../src/transform/normalized-session.js';
import { withOrigin } from '../../src/transform/session-origin.js';

let runs = 0;

export async function writeOriginWarehouse(
  location: TargetLocation,
  sessions: readonly NormalizedSession[],
  origin: string,
): Promise<string> {
  const target = await (await targetOpener(location))();
  const runId = `20260101T0000${String(runs++).padStart(2, '0')}000Z-${randomUUID().slice(0, 8)}`;
  try {
    await target.beginRun({ runId, startedAtMs: Date.now(), mode: 'full', optionsDigest: 'x', origin });
    await target.loadBatch(sessions.map((s) => withOrigin(s, origin)));
    await target.finishRun(runId, 'committed', Date.now(), emptyCounts());
  } finally {
    await target.close();
  }
  return runId;
}
