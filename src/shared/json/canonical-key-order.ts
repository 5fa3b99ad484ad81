/**
 * The member order of canonical JSON v1: an object's keys in Unicode code-point order, with each
 * key's `"key":` text. Rows of one table share their key list, so the sort and the key texts are
 * remembered for the last few key lists instead of being redone for every row.
 */

export interface KeyOrder {
  /** The keys in code-point order. */
  readonly sorted: readonly string[];
  /** `{"key":` for each sorted key: the text before the first member written. */
  readonly first: readonly string[];
  /** `,"key":` for each sorted key: the text before any later member. */
  readonly next: readonly string[];
}

/** Maps a UTF-16 unit ≥ U+D800 so that surrogates (code points above U+FFFF) sort after U+E000–U+FFFF. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

function compareCodePoints(a: string, b: string): number {
  // UTF-16 order differs from code-point order only between a surrogate and a unit ≥ U+E000.
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    return x >= 0xd800 && y >= 0xd800 ? codePointRank(x) - codePointRank(y) : x - y;
  }
  return a.length - b.length;
}

function build(keys: readonly string[]): KeyOrder {
  const sorted = [...keys].sort(compareCodePoints);
  const quoted = sorted.map((key) => `${JSON.stringify(key)}:`);
  return { sorted, first: quoted.map((q) => `{${q}`), next: quoted.map((q) => `,${q}`) };
}

/** Key lists longer than this are sorted every time (they are rarely repeated row shapes). */
const CACHED_KEYS_MAX = 64;
const CACHE_SIZE = 16;
const cachedKeys: (readonly string[])[] = [];
const cachedOrders: KeyOrder[] = [];

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The canonical member order of `keys` (an object's own enumerable keys, as `Object.keys` lists them). */
export function keyOrder(keys: readonly string[]): KeyOrder {
  if (keys.length > CACHED_KEYS_MAX) return build(keys);
  for (let i = 0; i < cachedKeys.length; i++) {
    if (!sameKeys(cachedKeys[i]!, keys)) continue;
    const order = cachedOrders[i]!;
    if (i > 0) {
      // Move the hit one place forward, so the current row shape is found first.
      cachedKeys[i] = cachedKeys[i - 1]!;
      cachedOrders[i] = cachedOrders[i - 1]!;
      cachedKeys[i - 1] = keys;
      cachedOrders[i - 1] = order;
    }
    return order;
  }
  const order = build(keys);
  if (cachedKeys.length === CACHE_SIZE) {
    cachedKeys.pop();
    cachedOrders.pop();
  }
  cachedKeys.unshift(keys);
  cachedOrders.unshift(order);
  return order;
}
