import { describe, expect, it } from 'vitest';
import {
  BackHalves,
  frontClaims,
  type RootShare,
  shareCell,
} from '../../../src/extract/sqlite/root-share.js';

/** Up to `count` claims of `share` over `children`. */
function claims(share: RootShare, children: number, count = Number.POSITIVE_INFINITY): number[] {
  const taken: number[] = [];
  while (taken.length < count) {
    const child = share.next(children);
    if (child === null) break;
    taken.push(child);
  }
  return taken;
}

describe('root shares', () => {
  it('gives each child to one walk: the front one at a time, the back a half of what is left', () => {
    const cell = shareCell();
    const front = frontClaims(cell);
    const back = new BackHalves(cell);
    expect(claims(front, 10, 2)).toEqual([0, 1]);
    // Eight are left: the back takes 6–9 in order, then half of 2–5.
    expect(claims(back, 10, 4)).toEqual([6, 7, 8, 9]);
    expect(back.range).toBe(1);
    expect(claims(front, 10, 1)).toEqual([2]);
    expect(claims(back, 10, 2)).toEqual([4, 5]);
    expect(back.range).toBe(2);
    expect(claims(front, 10)).toEqual([3]);
    expect(claims(back, 10)).toEqual([]);
  });

  it('lets the back walk start first and take every child, in halves walked in order', () => {
    const cell = shareCell();
    const back = new BackHalves(cell);
    expect(claims(back, 5)).toEqual([2, 3, 4, 1, 0]);
    expect(back.range).toBe(3);
    expect(claims(frontClaims(cell), 5)).toEqual([]);
  });

  it('takes a root without children as one child', () => {
    const cell = shareCell();
    expect(claims(frontClaims(cell), 1)).toEqual([0]);
    expect(claims(new BackHalves(cell), 1)).toEqual([]);
  });
});
