import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BASELINE_SESSION_IDS } from '../../fixtures/hostile/baseline-corpus.js';
import {
  buildCrashScenario,
  type CrashScenario,
  copyOfOld,
  FAULT_POINTS,
  faultEnv,
  runArgs,
  sessionStates,
  spreadPoints,
  type TargetKind,
} from './harness/crash-scenario.js';
import { runEtlInProcess } from './harness/etl-in-process.js';
import { fatalCode, runEtl, STACK_TRACE } from './harness/etl-process.js';
import { SOAK } from './harness/hostile-runner.js';
import { sessionsChecksum, verifyReport } from './harness/warehouse-probe.js';

/** Default suite: at least 50 kill points per target; soak: every point a run reaches. */
const KILL_POINTS = 52;

/** Labels a clean run must reach on each target: every kind of point the issue names. */
const REQUIRED_KINDS: Record<TargetKind, string[]> = {
  duckdb: [
    'sqlite get',
    'duckdb BEGIN',
    'duckdb DELETE messages',
    'duckdb append-row',
    'duckdb COMMIT',
    'duckdb UPDATE etl_runs',
  ],
  parquet: [
    'sqlite get',
    'duckdb BEGIN',
    'duckdb append-row',
    'duckdb COMMIT',
    'duckdb UPDATE etl_runs',
    'duckdb COPY',
    'fs link parquet',
    'fs open manifest',
    'fs rename manifest',
    'fs open CURRENT',
    'fs rename CURRENT',
    'fs rm state-dir',
  ],
};

/** Storage errors injected on each target's write path (the n-th time a labelled point is reached). */
const WRITE_FAULTS: Record<TargetKind, { label: string; errno: 'ENOSPC' | 'EIO'; published?: boolean }[]> = {
  duckdb: [
    { label: 'duckdb appender-close', errno: 'EIO' },
    { label: 'duckdb COMMIT', errno: 'ENOSPC' },
  ],
  parquet: [
    { label: 'duckdb COMMIT', errno: 'ENOSPC' },
    { label: 'duckdb COPY', errno: 'ENOSPC' },
    { label: 'fs link parquet', errno: 'EIO' },
    { label: 'fs open manifest', errno: 'ENOSPC' },
    { label: 'fs rename CURRENT', errno: 'EIO' },
    { label: 'fs rm state-dir', errno: 'EIO', published: true },
  ],
};

/** The first point with `label` after the content batch opened its messages appender (1-based). */
function afterContentAppend(points: readonly string[], label: string): number | undefined {
  const start = points.indexOf('duckdb appender-open messages');
  const index = points.findIndex((l, i) => i > start && l === label);
  return start < 0 || index < 0 ? undefined : index + 1;
}

/**
 * What a dead or failed Parquet writer may leave and the next run must clear: staging work areas
 * and state directories that are not on the published chain (`CURRENT` and its predecessors).
 */
function datasetResidue(target: string): string[] {
  const dir = target.slice('parquet:'.length);
  const chain = new Set<string>();
  let id: string | null = readFileSync(join(dir, 'CURRENT'), 'utf8').trim();
  while (id !== null && existsSync(join(dir, 'states', id, 'manifest.json'))) {
    chain.add(id);
    id = JSON.parse(readFileSync(join(dir, 'states', id, 'manifest.json'), 'utf8')).previousState;
  }
  const staging = existsSync(join(dir, 'staging')) ? readdirSync(join(dir, 'staging')) : [];
  const stray = readdirSync(join(dir, 'states')).filter((state) => !chain.has(state));
  return [...staging.map((name) => `staging/${name}`), ...stray.map((name) => `states/${name}`)];
}

/** The next clean run converges: exit 0, no stderr, the clean run's checksum, no dataset residue. */
async function expectConverges(scenario: CrashScenario, target: string, tmp: string, label: string) {
  const next = await runEtlInProcess(runArgs(scenario.newUserDir, target), tmp);
  expect({ label, code: next.code, stderr: next.stderr }).toEqual({ label, code: 0, stderr: '' });
  expect({ label, sum: await sessionsChecksum(target, BASELINE_SESSION_IDS) }).toEqual({
    label,
    sum: scenario.cleanChecksum,
  });
  if (scenario.kind === 'parquet')
    expect({ label, residue: datasetResidue(target) }).toEqual({ label, residue: [] });
}

for (const kind of ['duckdb', 'parquet'] as const) {
  describe(`crash safety (${kind}): SIGKILL at any fault point loses nothing and the next run converges`, () => {
    let scenario: CrashScenario;
    beforeAll(async () => {
      scenario = await buildCrashScenario(kind);
    }, 600_000);

    it(`a clean run reaches every kind of fault point (${REQUIRED_KINDS[kind].join(', ')})`, () => {
      const kinds = new Set(scenario.points);
      for (const label of REQUIRED_KINDS[kind]) expect(kinds).toContain(label);
    });

    it('after a SIGKILL at each point: the warehouse opens and verifies, no session mixes old and new rows, the next run converges', async () => {
      const chosen = SOAK ? scenario.points.map((_, i) => i + 1) : spreadPoints(scenario.points, KILL_POINTS);
      expect(chosen.length).toBeGreaterThanOrEqual(50);
      const outcomes = { killed: 0, finishedBeforePoint: 0 };
      for (const at of chosen) {
        const label = `#${at} ${scenario.points[at - 1]}`;
        const target = copyOfOld(scenario, `kill-${at}`);
        const tmp = join(scenario.root, `tmp-${at}`);
        const killed = runEtl(runArgs(scenario.newUserDir, target), {
          tmpDir: tmp,
          preloads: [FAULT_POINTS],
          env: faultEnv(target, { ETL_FAULT_AT: String(at) }),
          timeoutMs: 120_000,
        });
        expect({ label, timedOut: killed.timedOut }).toEqual({ label, timedOut: false });
        if (killed.signal === 'SIGKILL') outcomes.killed++;
        else outcomes.finishedBeforePoint++;
        expect({ label, problems: (await verifyReport(target)).problems }).toEqual({ label, problems: [] });
        const states = await sessionStates(scenario, target);
        expect({ label, states }).toEqual({ label, states: states.map((s) => (s === 'mixed' ? 'old' : s)) });
        // SIGKILL cannot clean up; whatever the dead run left stays owner-only until the next run sweeps it.
        for (const name of readdirSync(tmp)) expect(statSync(join(tmp, name)).mode & 0o077).toBe(0);
        await expectConverges(scenario, target, tmp, label);
        // The next run's start swept the dead run's private temp workspace (owner marker, dead pid).
        expect({ label, swept: readdirSync(tmp).filter((n) => n.startsWith('cursor-etl-')) }).toEqual({
          label,
          swept: [],
        });
      }
      console.log(
        `kill points tried (${kind}): ${chosen.length} of ${scenario.points.length} reachable (${outcomes.killed} killed)`,
      );
      expect(outcomes.killed).toBe(chosen.length);
    }, 2_400_000);

    it('an injected storage error (ENOSPC, EIO) on the write path fails typed WAREHOUSE_WRITE_FAILED (exit 4) without a path, loses nothing committed, leaves no residue, and the next run converges', async () => {
      const cases = WRITE_FAULTS[kind];
      for (const { label, errno, published } of cases) {
        const at = afterContentAppend(scenario.points, label);
        expect({ label, reached: at !== undefined }).toEqual({ label, reached: true });
        const target = copyOfOld(scenario, `fault-${label.replaceAll(' ', '-')}-${errno}`);
        const tmp = join(scenario.root, `tmp-fault-${label.replaceAll(' ', '-')}`);
        const failed = runEtl(runArgs(scenario.newUserDir, target), {
          tmpDir: tmp,
          preloads: [FAULT_POINTS],
          env: faultEnv(target, { ETL_FAULT_AT: String(at), ETL_FAULT_ERROR: errno }),
          timeoutMs: 120_000,
        });
        const error = JSON.parse(failed.stderr || '{}').error;
        expect({ label, code: failed.code, stdout: failed.stdout, fatal: fatalCode(failed) }).toEqual({
          label,
          code: 4,
          stdout: '',
          fatal: 'WAREHOUSE_WRITE_FAILED',
        });
        expect({ label, details: error.details }).toMatchObject({
          label,
          details: { target: kind, reason: errno, ...(published ? { published: true } : {}) },
        });
        expect({
          label,
          stack: STACK_TRACE.test(failed.stderr),
          path: failed.stderr.includes(scenario.root),
        }).toEqual({ label, stack: false, path: false });
        expect({ label, tmp: readdirSync(tmp) }).toEqual({ label, tmp: [] });
        expect({ label, problems: (await verifyReport(target)).problems }).toEqual({ label, problems: [] });
        const expected = published ? 'new' : 'old';
        expect({ label, states: await sessionStates(scenario, target) }).toEqual({
          label,
          states: BASELINE_SESSION_IDS.map(() => expected),
        });
        if (kind === 'parquet' && !published)
          expect({ label, residue: datasetResidue(target) }).toEqual({ label, residue: [] });
        await expectConverges(scenario, target, tmp, label);
        console.log(
          `write error ${errno} at ${label} (${kind}) → exit ${failed.code} ${error.code} ${error.details.operation}`,
        );
      }
    }, 900_000);
  });
}
