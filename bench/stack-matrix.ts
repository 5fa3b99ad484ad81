/**
 * The per-stack cases of one corpus: the full load and the raw floor on the Composer stack alone,
 * the Store stack alone and both, alternated run by run so a shared machine's slow spells fall on
 * both sides of every ratio. The merge's cost is what both cost beyond the two stacks alone.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchCorpus } from '../fixtures/bench/bench-corpus.js';
import { type BenchEnv, fullDuckDbOnceOn, rawFloorOnceOn } from './bench-cases.js';
import { median, type TargetCheck } from './bench-report.js';
import type { Sample } from './measure-process.js';

export type Stack = 'none' | 'composer' | 'store' | 'both';
/** `none` (both roots empty) is the fixed start-up cost, counted once in `both` but twice in the two alone. */
export const STACKS: readonly Stack[] = ['none', 'composer', 'store', 'both'];

export interface StackSamples {
  etl: Sample[];
  floor: Sample[];
}

export type StackMatrix = Record<Stack, StackSamples>;

/** The roots one stack's runs read; the other stack's root is an empty directory. */
function roots(env: BenchEnv, corpus: BenchCorpus, stack: Stack): { userDir: string; storeRoot: string } {
  const empty = join(env.workDir, 'empty-root');
  mkdirSync(join(empty, 'User'), { recursive: true });
  mkdirSync(join(empty, 'cursor'), { recursive: true });
  return {
    userDir: stack === 'store' || stack === 'none' ? join(empty, 'User') : corpus.userDir,
    storeRoot: stack === 'composer' || stack === 'none' ? join(empty, 'cursor') : corpus.storeRoot,
  };
}

/** The warehouse of the matrix's last run: both stacks when `both` was run here, kept for later cases. */
export const stackWarehouse = (env: BenchEnv): string => join(env.workDir, 'warehouse-stack.duckdb');

/** `both` may come from cases already run on the same corpus (the default bench's cases 1 and 7). */
export function stackMatrix(env: BenchEnv, corpus: BenchCorpus, both?: StackSamples): StackMatrix {
  const matrix: StackMatrix = {
    none: { etl: [], floor: [] },
    composer: { etl: [], floor: [] },
    store: { etl: [], floor: [] },
    both: both ?? { etl: [], floor: [] },
  };
  const warehouse = stackWarehouse(env);
  for (let run = 0; run < env.runs; run++) {
    for (const stack of STACKS) {
      if (stack === 'both' && both) continue;
      const sources = roots(env, corpus, stack);
      matrix[stack].etl.push(fullDuckDbOnceOn(env, sources, warehouse));
      matrix[stack].floor.push(rawFloorOnceOn(env, sources));
    }
  }
  return matrix;
}

const perRunMedian = (a: Sample[], b: Sample[], of: (s: Sample) => number): number =>
  median(a.map((sample, i) => of(sample) / of(b[i]!)));

export interface StackRow {
  stack: Stack | 'merge';
  etlWallMs: number;
  etlCpuMs: number;
  floorWallMs: number;
  floorCpuMs: number;
  /** Median of the per-run ratios (each ETL run over the floor run beside it). */
  wallRatio: number | null;
  cpuRatio: number | null;
  peakRssBytes: number;
}

export function stackRows(matrix: StackMatrix): StackRow[] {
  const rows: StackRow[] = STACKS.map((stack) => {
    const { etl, floor } = matrix[stack];
    return {
      stack,
      etlWallMs: median(etl.map((s) => s.wallMs)),
      etlCpuMs: median(etl.map((s) => s.cpuMs)),
      floorWallMs: median(floor.map((s) => s.wallMs)),
      floorCpuMs: median(floor.map((s) => s.cpuMs)),
      wallRatio: perRunMedian(etl, floor, (s) => s.wallMs),
      cpuRatio: perRunMedian(etl, floor, (s) => s.cpuMs),
      peakRssBytes: Math.max(...etl.map((s) => s.maxRssBytes)),
    };
  });
  const [n, c, s, b] = rows as [StackRow, StackRow, StackRow, StackRow];
  const beyond = (of: (r: StackRow) => number): number => of(b) - of(c) - of(s) + of(n);
  rows.push({
    stack: 'merge',
    etlWallMs: beyond((r) => r.etlWallMs),
    etlCpuMs: beyond((r) => r.etlCpuMs),
    floorWallMs: beyond((r) => r.floorWallMs),
    floorCpuMs: beyond((r) => r.floorCpuMs),
    wallRatio: null,
    cpuRatio: null,
    peakRssBytes: 0,
  });
  return rows;
}

const LABELS: Record<StackRow['stack'], string> = {
  none: 'start-up (both roots empty)',
  composer: 'Composer only',
  store: 'Store only',
  both: 'both stacks',
  merge: 'merge (both − Composer − Store + start-up)',
};

export function stackTable(rows: readonly StackRow[]): string {
  const s = (ms: number): string => (ms / 1000).toFixed(2);
  const x = (r: number | null): string => (r === null ? '–' : `${r.toFixed(2)}×`);
  return [
    '| stack | ETL wall s | ETL CPU s | floor wall s | floor CPU s | ratio wall | ratio CPU | peak RSS MB |',
    '| --- | -: | -: | -: | -: | -: | -: | -: |',
    ...rows.map(
      (r) =>
        `| ${LABELS[r.stack]} | ${s(r.etlWallMs)} | ${s(r.etlCpuMs)} | ${s(r.floorWallMs)} | ${s(r.floorCpuMs)} | ` +
        `${x(r.wallRatio)} | ${x(r.cpuRatio)} | ${r.peakRssBytes > 0 ? (r.peakRssBytes / 1024 / 1024).toFixed(0) : '–'} |`,
    ),
  ].join('\n');
}

/** The ceiling every stack's full load must stay under, as a multiple of its raw floor. */
export const STACK_FLOOR_LIMIT = 1.5;

export function stackChecks(rows: readonly StackRow[]): TargetCheck[] {
  const checks: TargetCheck[] = rows
    .filter((r) => r.wallRatio !== null && r.stack !== 'none')
    .map((r) => ({
      target: `${LABELS[r.stack]}: full load ≤ ${STACK_FLOOR_LIMIT}× raw floor`,
      measured: `${r.wallRatio!.toFixed(2)}× wall (CPU ${r.cpuRatio!.toFixed(2)}×)`,
      met: r.wallRatio! <= STACK_FLOOR_LIMIT,
    }));
  const merge = rows.find((r) => r.stack === 'merge')!;
  const both = rows.find((r) => r.stack === 'both')!;
  // A merged session should cost no more than reading its two sides, which the stack runs already did.
  checks.push({
    target: 'merge costs no more than reading both sides (merge row ≤ 5 % of both)',
    measured: `${(merge.etlWallMs / 1000).toFixed(2)} s wall (CPU ${(merge.etlCpuMs / 1000).toFixed(2)} s)`,
    met: merge.etlWallMs <= 0.05 * both.etlWallMs,
  });
  return checks;
}
