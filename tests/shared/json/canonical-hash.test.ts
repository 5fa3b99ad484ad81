import { describe, expect, it } from 'vitest';
import { canonicalHash, canonicalJson, sha256Hex } from '../../../src/shared/json/canonical-json.js';
import { prng } from '../../helpers/prng.js';

// canonicalHash writes strings as escaped UTF-8 bytes without building them; canonicalJson is the
// plain JSON.stringify text every stored digest was computed from: the two must never differ.

const C0 = Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c));
const LONE = ['\ud800', '\udbff', '\udc00', '\udfff'];
const ATOMS = [
  ...'abcxyzABC019 {}[]:,./<>-_',
  '"',
  '\\',
  ...C0,
  '\u007f',
  '\u0080',
  'é',
  'ÿ',
  '\u07ff',
  '\u0800',
  '→',
  '日本',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '😀',
  '\u{10000}',
  '\u{10ffff}',
  ...LONE,
];
/** Lengths around the sink's limits: the inline ASCII copy (128 units) and the UTF-8 slices (21,845). */
const LENGTHS = [
  0, 1, 2, 3, 4, 5, 7, 8, 127, 128, 129, 130, 1023, 1024, 21_843, 21_844, 21_845, 21_846, 21_847, 43_690,
  70_000,
];

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Plain ASCII with specials at the given rate, so both long plain runs and dense escapes occur. */
function text(random: () => number): string {
  const length = random() < 0.5 ? pick(random, LENGTHS) : Math.floor(random() * 300);
  const rate = pick(random, [0, 0.001, 0.02, 0.3, 1]);
  const units: string[] = [];
  let size = 0;
  while (size < length) {
    const unit = random() < rate ? pick(random, ATOMS) : pick(random, ATOMS.slice(0, 25));
    units.push(unit);
    size += unit.length;
  }
  return units.join('');
}

function value(random: () => number, depth: number): unknown {
  const kind = random();
  if (depth > 2 || kind < 0.55) return text(random);
  if (kind < 0.65) return pick(random, [null, true, false, 0, -0, 1.5, -1e21, 2 ** 53, undefined]);
  if (kind < 0.8) return Array.from({ length: Math.floor(random() * 6) }, () => value(random, depth + 1));
  const entries = Array.from({ length: Math.floor(random() * 6) }, () => [
    random() < 0.5 ? text(random).slice(0, 40) : pick(random, ['content', 'message_id', '😀', '\ue000']),
    value(random, depth + 1),
  ]);
  return Object.fromEntries(entries);
}

describe('canonicalHash', () => {
  it('equals SHA-256 of canonicalJson on 400 random values of adversarial strings', () => {
    const random = prng(20261203);
    for (let i = 0; i < 400; i++) {
      const sample = value(random, 0);
      if (sample === undefined) continue;
      expect(canonicalHash(sample), `sample ${i}`).toBe(sha256Hex(canonicalJson(sample)));
    }
  });

  it.each([
    ['empty', ''],
    ['every C0 control, DEL, quote and backslash', `${C0.join('')}\u007f"\\`],
    ['a long string with no escape', 'x'.repeat(200_000)],
    ['a long non-Latin-1 string with no escape', '日本é'.repeat(30_000)],
    ['newlines only', '\n'.repeat(70_000)],
    ['long text of quotes, backslashes and tabs', 'C:\\dir\\"name"\tx\r\n'.repeat(9000)],
    ['a surrogate pair across the slice boundary', `${'a'.repeat(21_844)}😀${'b'.repeat(50_000)}`],
    ['a surrogate pair across the inline prefix', `${'a'.repeat(127)}😀${'"'.repeat(300)}`],
    ['a lone surrogate after the inline prefix', `${'\n'.repeat(128)}\udc00`],
    ['a lone surrogate right after an ASCII prefix', `${'q'.repeat(3000)}\ud800`],
    ['a lone surrogate at the slice boundary', `${'é'.repeat(21_844)}\ud800${'z'.repeat(100)}`],
    ['a lone high surrogate at the end of a short string', 'abc\udbff'],
  ])(
    'equals SHA-256 of JSON.stringify for %s, alone and after text that nearly fills the buffer',
    (_label, sample) => {
      expect(canonicalHash(sample)).toBe(sha256Hex(JSON.stringify(sample)));
      for (const fill of [65_000, 65_400, 65_535]) {
        const pair = ['y'.repeat(fill), sample];
        expect(canonicalHash(pair)).toBe(sha256Hex(canonicalJson(pair)));
      }
    },
  );
});
