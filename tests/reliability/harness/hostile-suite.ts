/** Declares one Vitest suite that runs a set of hostile cases against a fresh healthy archive. */
import { beforeAll, describe, it } from 'vitest';
import type { HostileCase } from '../../../fixtures/hostile/hostile-case.js';
import { buildHealthyArchive, type HealthyArchive, modeFor, runHostileCase } from './hostile-runner.js';

/**
 * `pending` groups run only with `ETL_HOSTILE_ALL=1` while their expectations are being confirmed
 * against real runs; a group leaves that state once all of its cases pass.
 */
export function describeHostileSuite(
  kind: string,
  cases: readonly HostileCase[],
  options: { pending?: boolean } = {},
): void {
  const enabled = !options.pending || process.env.ETL_HOSTILE_ALL === '1';
  describe.runIf(enabled)(
    `hostile ${kind} inputs: every case ends typed, bounded, private and without touching archived sessions`,
    () => {
      let healthy: HealthyArchive;
      beforeAll(async () => {
        healthy = await buildHealthyArchive();
      }, 300_000);

      for (const hostile of cases) {
        it(hostile.name, async () => {
          await runHostileCase(hostile, healthy, modeFor(hostile));
        }, 120_000);
      }
    },
  );
}
