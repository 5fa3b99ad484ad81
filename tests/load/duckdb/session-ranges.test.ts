import { describe, expect, it } from 'vitest';
import { sessionRanges } from '../../../src/load/duckdb/session-ranges.js';

const weights = (rows: number[]) => rows.map((n, i) => ({ sessionId: `s${i}`, weight: n }));

describe('sessionRanges', () => {
  it('cuts consecutive sessions into ranges of at most maxWeight, in order, covering every session once', () => {
    const ranges = sessionRanges(weights([3, 4, 2, 5, 1, 1]), 7);
    expect(ranges.map((r) => r.sessionIds)).toEqual([
      ['s0', 's1'],
      ['s2', 's3'],
      ['s4', 's5'],
    ]);
    expect(ranges.map((r) => [r.first, r.last])).toEqual([
      ['s0', 's1'],
      ['s2', 's3'],
      ['s4', 's5'],
    ]);
  });

  it('gives a session heavier than maxWeight a range of its own and never an empty range', () => {
    const ranges = sessionRanges(weights([2, 50, 2]), 10);
    expect(ranges.map((r) => r.sessionIds)).toEqual([['s0'], ['s1'], ['s2']]);
    expect(sessionRanges([], 10)).toEqual([]);
  });
});
