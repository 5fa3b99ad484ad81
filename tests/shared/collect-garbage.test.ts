import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/shared/collect-garbage.js';

describe('collectGarbage', () => {
  it('collects an unreachable object without --expose-gc on the command line', async () => {
    let target: object | null = { rows: new Array(1000).fill('row') };
    const ref = new WeakRef(target);
    target = null;
    // A WeakRef keeps its target alive until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
  });
});
