/** Declares one Vitest suite that runs a set of hostile cases against a fresh healthy archive. */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { HostileCase } from '../../../fixtures/hostile/hostile-case.js';
import { buildHealthyArchive, type HealthyArchive, modeFor, runHostileCase } from './hostile-runner.js';

export function describeHostileSuite(kind: string, cases: readonly HostileCase[]): void {
  describe(`hostile ${kind} inputs: every case ends typed, bounded, private and without touching archived sessions`, () => {
    let healthy: HealthyArchive;
    beforeAll(async () => {
      healthy = await buildHealthyArchive();
    }, 300_000);
    afterAll(() => {
      if (healthy) rmSync(dirname(healthy.caseRoot), { recursive: true, force: true });
    });

    for (const hostile of cases) {
      it(hostile.name, async () => {
        await runHostileCase(hostile, healthy, modeFor(hostile));
      }, 120_000);
    }
  });
}
