/**
 * The merge cases: ten machine warehouses (copies of the full load's warehouse, so every input
 * holds the whole corpus) merged into an empty team warehouse, then merged again unchanged.
 */
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchEnv, CaseResult } from './bench-cases.js';
import type { CaseMedians, TargetCheck } from './bench-report.js';
import { medians } from './bench-report.js';
import { measureProcess, type Sample } from './measure-process.js';

export const MERGE_CASE_IDS = { fresh: 11, unchanged: 12 } as const;
export const MERGE_INPUTS = 10;

function removeWarehouse(path: string): void {
  rmSync(path, { force: true });
  rmSync(`${path}.wal`, { force: true });
}

function merge(env: BenchEnv, inputs: readonly string[], team: string): Sample {
  const sample = measureProcess(
    env.cli,
    ['merge', ...inputs.flatMap((input) => ['--from', input]), '--target', `duckdb:${team}`, '--json'],
    env.nodeFlags,
  );
  if (sample.exitCode !== 0)
    throw new Error(`etl merge failed (exit ${sample.exitCode}): ${sample.stderr.trim()}`);
  return sample;
}

/** Copies `warehouse` into ten machine warehouses, then measures the fresh and the unchanged merge. */
export function mergeCases(env: BenchEnv, warehouse: string): [CaseResult, CaseResult] {
  const inputs = Array.from({ length: MERGE_INPUTS }, (_, i) => join(env.workDir, `machine-${i}.duckdb`));
  for (const input of inputs) {
    removeWarehouse(input);
    copyFileSync(warehouse, input);
    if (existsSync(`${warehouse}.wal`)) copyFileSync(`${warehouse}.wal`, `${input}.wal`);
  }
  const team = join(env.workDir, 'team.duckdb');
  const fresh: Sample[] = [];
  for (let run = 0; run < env.runs; run++) {
    removeWarehouse(team);
    fresh.push(merge(env, inputs, team));
  }
  const unchanged = Array.from({ length: env.runs }, () => merge(env, inputs, team));
  const named = (id: number, name: string, samples: Sample[]): CaseResult => ({
    id,
    name,
    unavailable: null,
    samples,
    corpus: null,
    wholeCorpus: false,
  });
  return [
    named(MERGE_CASE_IDS.fresh, `etl merge, ${MERGE_INPUTS} machine warehouses into an empty one`, fresh),
    named(MERGE_CASE_IDS.unchanged, `etl merge, the ${MERGE_INPUTS} again unchanged`, unchanged),
  ];
}

export function mergeChecks(cases: readonly CaseResult[]): TargetCheck[] {
  const of = (id: number): CaseMedians | null => medians(cases.find((c) => c.id === id)?.samples ?? []);
  const fresh = of(MERGE_CASE_IDS.fresh);
  const unchanged = of(MERGE_CASE_IDS.unchanged);
  if (fresh === null || unchanged === null)
    return [{ target: 'unchanged merge ≤ 5 % of a fresh merge', measured: 'not measured', met: null }];
  const pct = (v: number): string => `${(v * 100).toFixed(1)} %`;
  const wall = unchanged.wallMs / fresh.wallMs;
  return [
    {
      target: `merging ${MERGE_INPUTS} unchanged machine warehouses ≤ 5 % of merging them fresh`,
      measured: `${pct(wall)} wall (CPU ${pct(unchanged.cpuMs / fresh.cpuMs)})`,
      met: wall <= 0.05,
    },
  ];
}
