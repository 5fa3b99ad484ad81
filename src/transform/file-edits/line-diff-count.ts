/**
 * Lines added and removed, counted deterministically: from a unified diff's `+`/`-` lines, or from
 * two texts by a shortest edit script over lines (Myers). Null when a count cannot be derived.
 */

export interface LineCounts {
  added: number;
  removed: number;
}

/** Beyond this many differing lines the edit script is not searched: the counts stay unknown. */
export const MAX_EDIT_DISTANCE = 4000;

/** Lines of a text; a final newline ends the last line rather than starting an empty one. */
export function textLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Counts of a unified diff (or a `diffString` chunk): `+`/`-` lines outside the `+++`/`---` file
 * headers. Null when no line is a diff line (the text is not a diff).
 */
export function countUnifiedDiff(diff: string): LineCounts | null {
  let added = 0;
  let removed = 0;
  let diffLines = 0;
  for (const line of textLines(diff)) {
    if (line.startsWith('+++ ') || line.startsWith('--- ')) {
      diffLines++;
      continue;
    }
    const first = line[0];
    if (first === '+') added++;
    else if (first === '-') removed++;
    else if (first === ' ' || first === '@' || first === '\\') {
      diffLines++;
      continue;
    } else continue;
    diffLines++;
  }
  return diffLines === 0 ? null : { added, removed };
}

/** The length of the shortest edit script between `a` and `b` (Myers), or null beyond `limit`. */
function editDistance(a: readonly string[], b: readonly string[], limit: number): number | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, limit);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return null;
}

/**
 * Counts between an old and a new text: the common prefix and suffix lines are unchanged, the rest
 * is a shortest edit script, so added − removed is always the change in line count.
 */
export function countTextChange(oldText: string, newText: string): LineCounts | null {
  const a = textLines(oldText);
  const b = textLines(newText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const d = editDistance(midA, midB, MAX_EDIT_DISTANCE);
  if (d === null) return null;
  // d = removed + added and added − removed = |b| − |a|.
  const added = (d + midB.length - midA.length) / 2;
  return { added, removed: d - added };
}
