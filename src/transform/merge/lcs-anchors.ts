/**
 * Alignment anchors: one LCS of strong keys (null never matches) chosen by a fixed rule: equal keys
 * pair, else the Composer side advances when that keeps the longest match. Only every √n-th row of
 * the suffix-LCS table is kept, the rows between recomputed.
 */

export interface Pair {
  composer: number;
  store: number;
}

type Key = string | null;

/** Fills `row` with the LCS lengths of composer[i..] and store[j..] for every j, from row i + 1. */
function fillRow(row: Uint32Array, below: Uint32Array, key: Key, storeKeys: readonly Key[]): void {
  const m = storeKeys.length;
  row[m] = 0;
  for (let j = m - 1; j >= 0; j--)
    row[j] = key !== null && key === storeKeys[j] ? below[j + 1]! + 1 : Math.max(below[j]!, row[j + 1]!);
}

export function lcsAnchors(composerKeys: readonly Key[], storeKeys: readonly Key[]): Pair[] {
  const n = composerKeys.length;
  const m = storeKeys.length;
  const pairs: Pair[] = [];
  // A common prefix pairs one to one whatever follows (equal keys always pair first).
  let start = 0;
  while (start < n && start < m && composerKeys[start] !== null && composerKeys[start] === storeKeys[start]) {
    pairs.push({ composer: start, store: start });
    start++;
  }
  if (start === n || start === m) return pairs;
  const block = Math.max(1, Math.ceil(Math.sqrt(n - start)));
  // kept.get(i): row i for i = n and every i = start + k·block, filled bottom-up with two scratch rows.
  const kept = new Map<number, Uint32Array>([[n, new Uint32Array(m + 1)]]);
  let below = new Uint32Array(m + 1);
  let row = new Uint32Array(m + 1);
  for (let i = n - 1; i >= start; i--) {
    fillRow(row, below, composerKeys[i]!, storeKeys);
    if ((i - start) % block === 0) kept.set(i, row.slice());
    [row, below] = [below, row];
  }
  // rows[k] = row (from + k) for the block [from, to] holding the walk's i and i + 1.
  const rows = Array.from({ length: block + 1 }, () => new Uint32Array(m + 1));
  let from = 0;
  let to = 0;
  const enter = (i: number): void => {
    from = start + Math.floor((i - start) / block) * block;
    to = Math.min(from + block, n);
    rows[to - from]!.set(kept.get(to)!);
    for (let k = to - 1; k >= from; k--)
      fillRow(rows[k - from]!, rows[k - from + 1]!, composerKeys[k]!, storeKeys);
  };
  let i = start;
  let j = start;
  while (i < n && j < m) {
    if (i >= to) enter(i);
    const key = composerKeys[i]!;
    if (key !== null && key === storeKeys[j]) {
      pairs.push({ composer: i, store: j });
      i++;
      j++;
    } else if (rows[i + 1 - from]![j]! >= rows[i - from]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}
