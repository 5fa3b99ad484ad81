import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../bench/bench-cases.js';
import type { Sample } from '../../bench/measure-process.js';
import { MERGE_CASE_IDS, mergeChecks } from '../../bench/merge-cases.js';

const sample = (wallMs: number, cpuMs: number): Sample => ({
  exitCode: 0,
  wallMs,
  cpuMs,
  maxRssBytes: 1,
  payloadBytes: null,
  stdout: '',
  stderr: '',
});

const merged = (id: number, samples: Sample[]): CaseResult => ({
  id,
  name: String(id),
  unavailable: null,
  samples,
  corpus: null,
  wholeCorpus: false,
});

describe('the merge target check', () => {
  it('judges the unchanged merge against the fresh one on wall time, CPU beside', () => {
    const cases = [
      merged(MERGE_CASE_IDS.fresh, [
        sample(100_000, 40_000),
        sample(120_000, 50_000),
        sample(110_000, 45_000),
      ]),
      merged(MERGE_CASE_IDS.unchanged, [sample(3_000, 1_500), sample(4_000, 1_600), sample(3_500, 1_550)]),
    ];
    expect(mergeChecks(cases)).toEqual([
      {
        target: 'merging 10 unchanged machine warehouses ≤ 5 % of merging them fresh',
        measured: '3.2 % wall (CPU 3.4 %)',
        met: true,
      },
    ]);
    const slow = [cases[0]!, merged(MERGE_CASE_IDS.unchanged, [sample(7_000, 3_000)])];
    expect(mergeChecks(slow)[0]!.met).toBe(false);
    expect(mergeChecks([])[0]).toMatchObject({ measured: 'not measured', met: null });
  });
});
