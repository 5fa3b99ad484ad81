import { describe, expect, it } from 'vitest';
import { ROW_GROUP_ROWS, RowGroupCheckpoint } from '../../../src/load/duckdb/row-group-checkpoint.js';

/** Indexes (1-based) of the batches after which a checkpoint is due. */
function dueAfter(batches: readonly number[]): number[] {
  const rowGroups = new RowGroupCheckpoint();
  return batches.flatMap((rows, i) => (rowGroups.committed(rows) ? [i + 1] : []));
}

describe('checkpoints as the messages row group fills', () => {
  it('is due once the next batch of the same size would no longer fit, then counts a fresh row group', () => {
    // 40 batches of 3,000 rows fill 120,000 of 122,880: the 41st would not fit.
    expect(dueAfter(Array.from({ length: 100 }, () => 3_000))).toEqual([40, 80]);
  });

  it('is due when a batch spilled into a new row group, and never for a batch without message rows', () => {
    expect(dueAfter([60_000, 2_000, 0, 70_000, 0])).toEqual([4]);
    expect(dueAfter([ROW_GROUP_ROWS])).toEqual([1]);
    expect(dueAfter([0, 0])).toEqual([]);
  });
});
