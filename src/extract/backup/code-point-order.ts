/** Code-point string order (JS `<` compares UTF-16 units, which misorders astral characters). */
export function compareCodePoints(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const diff = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (diff !== 0) return diff;
  }
}

/** True when every item is strictly greater than the previous one (sorted and unique). */
export function isStrictlyOrdered(items: readonly string[]): boolean {
  for (let i = 1; i < items.length; i++) if (compareCodePoints(items[i - 1]!, items[i]!) >= 0) return false;
  return true;
}
