import { describe, expect, it } from 'vitest';
import { canonicalHash, canonicalJson, sha256Hex } from '../../../src/shared/json/canonical-json.js';

describe('canonical JSON v1', () => {
  it('matches the contract test vector (keys by code point, undefined omitted, undefined array items as null)', () => {
    const value = { z: 1, nested: { b: true, a: 'é', omitted: undefined }, array: [1, undefined, 3], a: 2 };
    expect(canonicalJson(value)).toBe('{"a":2,"array":[1,null,3],"nested":{"a":"é","b":true},"z":1}');
    expect(canonicalHash(value)).toBe('275c76c3cb77d8c33b369b35a6d3685656effe2b6629235ccbfcfbcdfd4e88d5');
  });

  it('orders keys by Unicode code point, not UTF-16 units: "\\uE000" before "😀"', () => {
    expect(canonicalJson({ '😀': 2, '\uE000': 1 })).toBe('{"\uE000":1,"😀":2}');
  });

  it('orders keys by code point across surrogates, BMP private use and prefixes', () => {
    const keys = ['b', 'a\u{1F600}', 'a\uFFFF', 'a', 'a\uE000', 'a\u{10000}', 'ab', '\u{1F600}', '\uD7FF'];
    const expected = [...keys].sort((x, y) => {
      const a = [...x].map((c) => c.codePointAt(0)!);
      const b = [...y].map((c) => c.codePointAt(0)!);
      for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
      return a.length - b.length;
    });
    const object = Object.fromEntries(keys.map((key, i) => [key, i]));
    expect(Object.keys(JSON.parse(canonicalJson(object)))).toEqual(expected);
    expect(expected.slice(0, 6)).toEqual(['a', 'ab', 'a\uE000', 'a\uFFFF', 'a\u{10000}', 'a\u{1F600}']);
  });

  it('hashes a large value in chunks to exactly the SHA-256 of its canonical JSON', () => {
    const big = {
      rows: Array.from({ length: 300 }, (_, i) => ({ i, text: `é😀${'x'.repeat(700 + i)}`, z: undefined })),
    };
    const text = canonicalJson(big);
    expect(text.length).toBeGreaterThan(1 << 17);
    expect(canonicalHash(big)).toBe(sha256Hex(text));
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['bigint', 1n],
    ['a Date', new Date(0)],
    ['a Map', new Map()],
    ['a function', () => 1],
  ])('rejects %s', (_label, value) => {
    expect(() => canonicalJson({ value })).toThrow(/cannot be canonicalized/);
  });

  it('rejects cycles but accepts shared non-cyclic references', () => {
    const shared = { a: 1 };
    expect(canonicalJson({ x: shared, y: shared })).toBe('{"x":{"a":1},"y":{"a":1}}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
  });

  it('accepts null-prototype objects and writes no whitespace', () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare.b = [1, 'two'];
    bare.a = null;
    expect(canonicalJson(bare)).toBe('{"a":null,"b":[1,"two"]}');
  });

  it('canonicalizes 100 000-deep arrays and objects (valid source JSON) without overflowing the stack', () => {
    const depth = 100_000;
    const arrays = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(canonicalJson(JSON.parse(arrays))).toBe(arrays);
    const objects = `${'{"b":1,"a":'.repeat(depth)}null${'}'.repeat(depth)}`;
    const sorted = `${'{"a":'.repeat(depth)}null${',"b":1}'.repeat(depth)}`;
    expect(canonicalJson(JSON.parse(objects))).toBe(sorted);
    expect(canonicalHash(JSON.parse(objects))).toBe(sha256Hex(sorted));
  });

  it('detects a cycle deep below the root and still accepts a shared subtree at any depth', () => {
    const root: Record<string, unknown> = {};
    let node = root;
    for (let i = 0; i < 20_000; i++) {
      const child: Record<string, unknown> = {};
      node.next = child;
      node = child;
    }
    const shared = [1];
    node.left = shared;
    node.right = shared;
    expect(canonicalJson(root).endsWith('{"left":[1],"right":[1]}'.concat('}'.repeat(20_000)))).toBe(true);
    node.loop = root;
    expect(() => canonicalJson(root)).toThrow(/cycle/);
  });
});
