import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_SESSION_IDS } from '../../fixtures/hostile/baseline-corpus.js';
import { buildCrashScenario, type CrashScenario, perSessionSums, runArgs } from './harness/crash-scenario.js';
import { runEtlInProcess } from './harness/etl-in-process.js';
import { fatalCode, runEtl, STACK_TRACE } from './harness/etl-process.js';
import { startPausedRun } from './harness/paused-run.js';
import { sessionsChecksum, verifyReport } from './harness/warehouse-probe.js';

describe('concurrency and signals', () => {
  let scenario: CrashScenario;
  beforeAll(async () => {
    scenario = await buildCrashScenario();
  }, 600_000);

  const firstPoint = (label: string): number => scenario.points.indexOf(label) + 1;

  it('while a run holds the warehouse, a second etl run and a reader exit at once with a retryable lock error; the first run completes', async () => {
    const warehouse = join(scenario.root, 'concurrent.duckdb');
    copyFileSync(scenario.oldWarehouse, warehouse);
    const first = await startPausedRun(
      runArgs(scenario.newUserDir, warehouse),
      firstPoint('duckdb DELETE messages'),
      join(scenario.root, 'concurrent.resume'),
      join(scenario.root, 'tmp-concurrent'),
    );
    const second = runEtl(runArgs(scenario.newUserDir, warehouse), {
      tmpDir: join(scenario.root, 'tmp-second'),
    });
    const reader = runEtl(
      ['query', '--json', '--target', `duckdb:${warehouse}`, 'SELECT count(*) AS n FROM sessions'],
      {
        tmpDir: join(scenario.root, 'tmp-reader'),
      },
    );
    first.resume();
    const result = await first.done;
    for (const blocked of [second, reader]) {
      expect(blocked.timedOut).toBe(false);
      expect(blocked.code).toBe(4);
      expect(blocked.stdout).toBe('');
      expect(STACK_TRACE.test(blocked.stderr)).toBe(false);
      // ETL_LOCKED once the run lock lands; today DuckDB's own file lock answers first.
      expect(['ETL_LOCKED', 'WAREHOUSE_BUSY']).toContain(fatalCode(blocked));
      expect(JSON.parse(blocked.stderr).error.details).not.toHaveProperty('path');
    }
    expect(readdirSync(join(scenario.root, 'tmp-second'))).toEqual([]);
    expect(result.code).toBe(0);
    expect((await verifyReport(warehouse)).problems).toEqual([]);
    expect(await sessionsChecksum(warehouse, BASELINE_SESSION_IDS)).toBe(scenario.cleanChecksum);
  }, 600_000);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} during hydration stops at a safe point: non-zero exit, run marked interrupted, temp cleaned, nothing mixed, next run converges`, async () => {
      const warehouse = join(scenario.root, `${signal}.duckdb`);
      copyFileSync(scenario.oldWarehouse, warehouse);
      const tmp = join(scenario.root, `tmp-${signal}`);
      // Pause on the second session's first payload read, then deliver the signal.
      const reads = scenario.points.flatMap((label, i) => (label === 'sqlite get' ? [i + 1] : []));
      const run = await startPausedRun(
        runArgs(scenario.newUserDir, warehouse),
        reads[Math.floor(reads.length / 2)]!,
        join(tmp, 'resume'),
        tmp,
      );
      run.child.kill(signal);
      run.resume();
      const result = await run.done;
      expect(result.timedOut).toBe(false);
      expect(result.code).toBe(signal === 'SIGINT' ? 130 : 143);
      expect(JSON.parse(result.stdout).run.status).toBe('interrupted');
      expect(readdirSync(tmp).filter((name) => name.startsWith('cursor-etl-'))).toEqual([]);
      expect((await verifyReport(warehouse)).problems).toEqual([]);
      const sums = await perSessionSums(warehouse);
      const states = BASELINE_SESSION_IDS.map((id) =>
        sums.get(id) === scenario.oldSums.get(id)
          ? 'old'
          : sums.get(id) === scenario.newSums.get(id)
            ? 'new'
            : 'mixed',
      );
      expect(states).not.toContain('mixed');
      expect(states).toContain('old');
      const status = await runEtlInProcess(['status', '--json', '--target', `duckdb:${warehouse}`], tmp);
      expect(JSON.parse(status.stdout).runs.map((r: { status: string }) => r.status)).toContain(
        'interrupted',
      );
      expect((await runEtlInProcess(runArgs(scenario.newUserDir, warehouse), tmp)).code).toBe(0);
      expect(await sessionsChecksum(warehouse, BASELINE_SESSION_IDS)).toBe(scenario.cleanChecksum);
    }, 600_000);
  }
});
