/**
 * docs/compatibility-matrix.md lists every Compatibility Matrix v1 cell × carrier with its
 * classification; every Required cell names an existing test (or is explicitly pending for a named
 * issue), Unsupported cells name a rejection test, and N/A cells are never counted as covered.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Class = 'Required' | 'Unsupported' | 'N/A';
const R: Class = 'Required';
const NA: Class = 'N/A';
const U: Class = 'Unsupported';

/** Matrix v1 as the contract states it: cell → [live default, custom data, supported backup]. */
const MATRIX_V1: [string, Class, Class, Class][] = [
  ['Composer global', R, R, R],
  ['Composer workspace fallback', R, R, R],
  ['Store database conversation', R, R, NA],
  ['Store transcript with no discovered or expected database', R, R, NA],
  [
    'Store transcript fallback after capable DB setup: expected DB absent, empty, or source-corrupt/unreadable',
    R,
    R,
    NA,
  ],
  [
    'Usable Store database coexists with a Store transcript and all known relevant Store occurrences are permitted',
    R,
    R,
    NA,
  ],
  [
    'Workspace-scoped Store UUID has a known database or transcript occurrence outside the default I/O boundary',
    R,
    R,
    NA,
  ],
  ['Complete Composer/Store merge, Composer-preferred ordering', R, R, NA],
  ['Complete Composer/Store merge, Store-preferred ordering', R, R, NA],
  ['Scoped merged UUID with a known contributor outside the default workspace I/O boundary', R, R, NA],
  ['Scoped merged UUID with explicit selected-UUID cross-workspace contributor opt-in', R, R, NA],
  ['Store metadata indicating a possible conversation but no usable payload', R, R, NA],
  ['Equivalent same-role Composer replicas', R, R, R],
  ['Divergent same-role Composer replicas', R, R, R],
  ['Equivalent same-role Store replicas', R, R, NA],
  ['Divergent same-role Store replicas', R, R, NA],
  ['Automatic selection or union of divergent replicas', U, U, U],
];

/** Cells whose tests belong to other issues' branches (or to unfinished work), by issue number. */
const ALLOWED_PENDING = new Set(['7']);

const doc = readFileSync('docs/compatibility-matrix.md', 'utf8');
const rows = new Map(
  doc
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Cell') && !line.startsWith('| ---'))
    .map((line) => {
      const cells = line.split(' | ').map((c) => c.replace(/^\| ?| ?\|$/g, '').trim());
      return [cells[0]!, cells.slice(1)] as const;
    }),
);

function parseEntry(entry: string): { cls: string; pending: string | null; test: string | null } {
  const match = /^(Required|Unsupported|N\/A)(?:, pending \(issue (\d+)\))?(?:: (.+))?$/.exec(entry);
  if (!match) throw new Error(`unparseable matrix entry: ${entry}`);
  return { cls: match[1]!, pending: match[2] ?? null, test: match[3] ?? null };
}

function testExists(reference: string): boolean {
  const [file, name] = reference.split(' › ');
  if (!file || !name || !existsSync(file)) return false;
  const source = readFileSync(file, 'utf8');
  const [cell, carrier] = name.split(' — ');
  return source.includes(cell!) && (carrier === undefined || source.includes(carrier));
}

describe('Compatibility Matrix v1 coverage document', () => {
  it('lists every cell of Matrix v1 exactly once with the contract classification per carrier', () => {
    expect([...rows.keys()]).toEqual(MATRIX_V1.map(([cell]) => cell));
    for (const [cell, ...classes] of MATRIX_V1) {
      expect(rows.get(cell)!.map((entry) => parseEntry(entry).cls)).toEqual(classes);
    }
  });

  it('N/A cells are listed as N/A, name no test and are never counted as covered', () => {
    for (const entries of rows.values())
      for (const entry of entries.filter((e) => e.startsWith('N/A'))) expect(entry).toBe('N/A');
  });

  it('every Required cell names an existing test, unless explicitly pending for a named issue', () => {
    const uncovered: string[] = [];
    for (const [cell, entries] of rows) {
      for (const entry of entries.map(parseEntry).filter((e) => e.cls === 'Required')) {
        expect(entry.test, cell).not.toBeNull();
        if (entry.pending !== null) {
          expect(ALLOWED_PENDING.has(entry.pending), cell).toBe(true);
          uncovered.push(cell);
        } else expect(testExists(entry.test!), `${cell}: ${entry.test}`).toBe(true);
      }
    }
    expect(uncovered.length).toBeLessThan(MATRIX_V1.length * 3);
  });

  it('Unsupported cells point to their rejection test', () => {
    for (const entries of rows.values()) {
      for (const entry of entries.map(parseEntry).filter((e) => e.cls === 'Unsupported')) {
        expect(entry.test).not.toBeNull();
        if (entry.pending === null) expect(testExists(entry.test!), entry.test!).toBe(true);
      }
    }
  });
});
