import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { holdHeapNearLiveSize } from '../../src/sync/run-heap.js';

function newSpaceBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

describe('holdHeapNearLiveSize', () => {
  it('keeps the young generation from growing past its bound under a stream of short-lived rows', async () => {
    holdHeapNearLiveSize();
    let rows: { id: number; text: string }[] = [];
    // ~3 million short-lived objects: by default the semi-spaces grow to 16 MiB each (32 MiB of new
    // space). The run yields between batches as a load does, letting the GC observer run.
    for (let i = 0; i < 3_000_000; i++) {
      rows.push({ id: i, text: `row ${i}` });
      if (rows.length > 1000) rows = [];
      if (i % 10_000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(rows.length).toBeLessThanOrEqual(1001);
    expect(newSpaceBytes()).toBeLessThanOrEqual(8 * 1024 * 1024);
  });
});
