import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/shared/json/canonical-json.js';
import { keyOrder } from '../../../src/shared/json/canonical-key-order.js';

describe('canonical key order', () => {
  it('gives the same order for a remembered key list and a fresh one, whatever the insertion order', () => {
    const first = keyOrder(['z', 'a', 'é', 'b']);
    expect(first.sorted).toEqual(['a', 'b', 'z', 'é']);
    expect(first.first).toEqual(['{"a":', '{"b":', '{"z":', '{"é":']);
    expect(first.next).toEqual([',"a":', ',"b":', ',"z":', ',"é":']);
    expect(keyOrder(['z', 'a', 'é', 'b'])).toBe(first);
    expect(keyOrder(['b', 'é', 'a', 'z']).sorted).toEqual(first.sorted);
  });

  it('stays exact when more row shapes alternate than it remembers', () => {
    const rows = Array.from({ length: 40 }, (_, shape) =>
      Object.fromEntries(
        Array.from({ length: 3 + (shape % 7) }, (_, k) => [`k${(shape * 13 + k * 7) % 50}`, k]),
      ),
    );
    const expected = rows.map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).sort())));
    for (let round = 0; round < 3; round++) expect(rows.map((row) => canonicalJson(row))).toEqual(expected);
  });

  it('sorts objects with more keys than it caches', () => {
    const keys = Array.from({ length: 100 }, (_, i) => `key${String(99 - i).padStart(3, '0')}`);
    expect(keyOrder(keys).sorted).toEqual([...keys].reverse());
  });

  it('skips undefined members wherever they fall, including the first and every member', () => {
    expect(canonicalJson({ a: undefined, b: 1, c: undefined, d: 2 })).toBe('{"b":1,"d":2}');
    expect(canonicalJson({ a: undefined, b: undefined })).toBe('{}');
    expect(canonicalJson([{ a: undefined }, {}, { b: [] }])).toBe('[{},{},{"b":[]}]');
  });
});
