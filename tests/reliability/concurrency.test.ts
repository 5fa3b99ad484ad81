import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_SESSION_IDS } from '../../fixtures/hostile/baseline-corpus.js';
import { targetLockBase } from '../../src/load/open-target.js';
import { lockPathFor } from '../../src/shared/process/run-lock.js';
import {
  buildCrashScenario,
  type CrashScenario,
  copyOfOld,
  faultEnv,
  runArgs,
  sessionStates,
} from './harness/crash-scenario.js';
import { runEtlInProcess } from './harness/etl-in-process.js';
import { fatalCode, runEtl, STACK_TRACE } from './harness/etl-process.js';
import { startPausedRun } from './harness/paused-run.js';
import { sessionsChecksum, verifyReport } from './harness/warehouse-probe.js';

const pathOf = (target: string): string => target.slice(target.indexOf(':') + 1);
const lockOf = (target: string): string =>
  lockPathFor(
    targetLockBase({ kind: target.startsWith('parquet:') ? 'parquet' : 'duckdb', path: pathOf(target) }),
  );

for (const kind of ['duckdb', 'parquet'] as const) {
  describe(`concurrency, stale locks and signals (${kind})`, () => {
    let scenario: CrashScenario;
    beforeAll(async () => {
      scenario = await buildCrashScenario(kind);
    }, 600_000);

    /** Holds a run inside its content batch (the messages appender is open, nothing committed). */
    const pauseInBatch = (target: string, name: string) =>
      startPausedRun(
        runArgs(scenario.newUserDir, target),
        scenario.points.indexOf('duckdb appender-open messages') + 1,
        join(scenario.root, `${name}.resume`),
        join(scenario.root, `tmp-${name}`),
        faultEnv(target, {}),
      );

    it('while a run is mid-batch, a second etl run exits at once with ETL_LOCKED naming the live holder; a reader works or gets a retryable error; the first run completes', async () => {
      const target = copyOfOld(scenario, 'concurrent');
      const first = await pauseInBatch(target, 'concurrent');
      // The holder is still paused when these return: neither waits for the lock.
      const second = runEtl(runArgs(scenario.newUserDir, target), {
        tmpDir: join(scenario.root, 'tmp-second'),
      });
      const reader = runEtl(['query', '--json', '--target', target, 'SELECT count(*) AS n FROM sessions'], {
        tmpDir: join(scenario.root, 'tmp-reader'),
      });
      expect(existsSync(join(scenario.root, 'concurrent.resume'))).toBe(false);
      first.resume();
      const result = await first.done;
      expect({ code: second.code, stdout: second.stdout, fatal: fatalCode(second) }).toEqual({
        code: 4,
        stdout: '',
        fatal: 'ETL_LOCKED',
      });
      expect(JSON.parse(second.stderr).error.details.holderPid).toBe(first.child.pid);
      expect(readdirSync(join(scenario.root, 'tmp-second'))).toEqual([]);
      expect(reader.timedOut).toBe(false);
      expect(STACK_TRACE.test(reader.stderr)).toBe(false);
      if (kind === 'parquet') {
        // Readers see the published state; the run in progress publishes nothing until CURRENT moves.
        expect(reader.code).toBe(0);
        // The baseline sessions plus the one archived from other roots.
        expect(Number(JSON.parse(reader.stdout).rows[0].n)).toBe(BASELINE_SESSION_IDS.length + 1);
      } else {
        // DuckDB allows one writing process; a read-only open meanwhile is refused, typed and retryable.
        expect({ code: reader.code, fatal: fatalCode(reader) }).toEqual({ code: 4, fatal: 'WAREHOUSE_BUSY' });
        expect(JSON.parse(reader.stderr).error.details).not.toHaveProperty('path');
      }
      expect(result.code).toBe(0);
      expect((await verifyReport(target)).problems).toEqual([]);
      expect(await sessionsChecksum(target, BASELINE_SESSION_IDS)).toBe(scenario.cleanChecksum);
    }, 600_000);

    it('a SIGKILLed run leaves a stale lock and temp residue: the next run takes the lock over, sweeps the residue and converges', async () => {
      const target = copyOfOld(scenario, 'stale');
      const killed = await pauseInBatch(target, 'stale');
      const deadPid = killed.child.pid;
      killed.child.kill('SIGKILL');
      expect((await killed.done).signal).toBe('SIGKILL');
      const lock = JSON.parse(readFileSync(lockOf(target), 'utf8'));
      expect(lock.pid).toBe(deadPid);
      const tmp = join(scenario.root, 'tmp-stale');
      // The killed run's private temp dir and its DuckDB writer's spill dir are both left behind.
      expect(readdirSync(tmp).filter((name) => name.startsWith('cursor-etl-')).length).toBeGreaterThan(0);
      const next = await runEtlInProcess(runArgs(scenario.newUserDir, target), tmp);
      expect({ code: next.code, stderr: next.stderr }).toEqual({ code: 0, stderr: '' });
      expect(existsSync(lockOf(target))).toBe(false);
      expect(readdirSync(tmp).filter((name) => name.startsWith('cursor-etl-'))).toEqual([]);
      expect(await sessionsChecksum(target, BASELINE_SESSION_IDS)).toBe(scenario.cleanChecksum);
    }, 600_000);

    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      it(`${signal} during hydration stops at a safe point within 15 s: non-zero exit, run marked interrupted, temp cleaned, nothing mixed, next run converges`, async () => {
        const target = copyOfOld(scenario, signal);
        const tmp = join(scenario.root, `tmp-${signal}`);
        // Pause on a payload read half-way through hydration, then deliver the signal.
        const reads = scenario.points.flatMap((label, i) => (label === 'sqlite get' ? [i + 1] : []));
        const run = await startPausedRun(
          runArgs(scenario.newUserDir, target),
          reads[Math.floor(reads.length / 2)]!,
          join(tmp, 'resume'),
          tmp,
          faultEnv(target, {}),
        );
        run.child.kill(signal);
        run.resume();
        const resumedAt = Date.now();
        const result = await run.done;
        expect(result.timedOut).toBe(false);
        // A nightly job's timeout sends SIGTERM and waits a little: the run must not read on to the end.
        expect(Date.now() - resumedAt).toBeLessThan(15_000);
        expect(result.code).toBe(signal === 'SIGINT' ? 130 : 143);
        expect(JSON.parse(result.stdout).run.status).toBe('interrupted');
        expect(readdirSync(tmp).filter((name) => name.startsWith('cursor-etl-'))).toEqual([]);
        expect(existsSync(lockOf(target))).toBe(false);
        if (kind === 'parquet') expect(readdirSync(join(pathOf(target), 'staging'))).toEqual([]);
        expect((await verifyReport(target)).problems).toEqual([]);
        const states = await sessionStates(scenario, target);
        expect(states).not.toContain('mixed');
        expect(states).toContain('old');
        const status = await runEtlInProcess(['status', '--json', '--target', target], tmp);
        expect(JSON.parse(status.stdout).runs.map((r: { status: string }) => r.status)).toContain(
          'interrupted',
        );
        expect((await runEtlInProcess(runArgs(scenario.newUserDir, target), tmp)).code).toBe(0);
        expect(await sessionsChecksum(target, BASELINE_SESSION_IDS)).toBe(scenario.cleanChecksum);
      }, 600_000);
    }
  });
}
