import { describe, expect, it } from 'vitest';
import { lcsAnchors, type Pair } from '../../../src/transform/merge/lcs-anchors.js';
import { prng } from '../../helpers/prng.js';

type Key = string | null;

/** The rule on the whole n×m suffix table, as alignment computed it before rows were recomputed. */
function wholeTableAnchors(a: readonly Key[], b: readonly Key[]): Pair[] {
  const n = a.length;
  const m = b.length;
  const w = m + 1;
  const t = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      t[i * w + j] =
        a[i] !== null && a[i] === b[j]
          ? t[(i + 1) * w + j + 1]! + 1
          : Math.max(t[(i + 1) * w + j]!, t[i * w + j + 1]!);
  const pairs: Pair[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] !== null && a[i] === b[j]) {
      pairs.push({ composer: i, store: j });
      i++;
      j++;
    } else if (t[(i + 1) * w + j]! >= t[i * w + j + 1]!) i++;
    else j++;
  }
  return pairs;
}

function keys(random: () => number, length: number, alphabet: number): Key[] {
  return Array.from({ length }, () => {
    const k = Math.floor(random() * (alphabet + 1));
    return k === alphabet ? null : `k${k}`;
  });
}

describe('lcsAnchors ("depends only on content": the same anchors as the whole suffix table, in O(√n·m) memory)', () => {
  it('equals the whole-table rule on 3,000 random pairs of key lists (ties, repeats, nulls, shared prefixes)', () => {
    const random = prng(20261203);
    for (let round = 0; round < 3000; round++) {
      const alphabet = 1 + Math.floor(random() * 6);
      const a = keys(random, Math.floor(random() * 40), alphabet);
      let b = keys(random, Math.floor(random() * 40), alphabet);
      // A third of the rounds share a prefix, as replicas of one conversation do.
      if (round % 3 === 0) b = [...a.slice(0, Math.floor(random() * a.length)), ...b];
      expect(lcsAnchors(a, b), `round ${round}`).toEqual(wholeTableAnchors(a, b));
    }
  });

  it('equals it on long lists whose walk crosses many recomputed blocks', () => {
    const random = prng(7);
    const a = keys(random, 900, 3);
    const b = keys(random, 700, 3);
    expect(lcsAnchors(a, b)).toEqual(wholeTableAnchors(a, b));
  });

  it('pairs identical lists one to one, and empty lists not at all', () => {
    const a = ['x', 'y', null, 'x'];
    expect(lcsAnchors(a, a)).toEqual([
      { composer: 0, store: 0 },
      { composer: 1, store: 1 },
      { composer: 3, store: 3 },
    ]);
    expect(lcsAnchors([], ['x'])).toEqual([]);
    expect(lcsAnchors(['x'], [])).toEqual([]);
  });
});
