import { describe, expect, it } from 'vitest';
import { durationMsOrNull, readInstant } from '../../../src/shared/time/read-instant.js';

const at = (ms: number) => ({ kind: 'instant', ms });
const no = (reason: string) => ({ kind: 'rejected', reason });

describe('one reader for every source time value (docs/time.md)', () => {
  it('accepts epoch ms as an integer or a digit string, and ISO 8601 with an explicit zone', () => {
    expect(readInstant(1769902200000)).toEqual(at(1769902200000));
    expect(readInstant('1769902200000')).toEqual(at(1769902200000));
    expect(readInstant('2026-01-31T23:30:00.000Z')).toEqual(at(1769902200000));
    expect(readInstant('2026-02-01T05:00:00+05:30')).toEqual(at(1769902200000));
    expect(readInstant('2026-01-31T23:30Z')).toEqual(at(1769902200000));
    expect(readInstant('2026-01-31T23:30:00.0009999Z')).toEqual(at(1769902200000));
  });

  it('a zoneless ISO string is unknown, never read in the machine zone', () => {
    expect(readInstant('2026-01-31T23:30:00.000')).toEqual(no('zoneless'));
    expect(readInstant('2026-01-31')).toEqual(no('zoneless'));
  });

  it('free text is never a time (no lenient date parser)', () => {
    for (const text of [
      '-5',
      'March 8',
      '1e20',
      ' 1769902200000',
      '2026-02-30T00:00:00Z',
      '2026-01-31 23:30Z',
    ])
      expect(readInstant(text), text).toEqual(no('not-a-time'));
    expect(readInstant(true)).toEqual(no('not-a-time'));
    expect(readInstant({})).toEqual(no('not-a-time'));
  });

  it('fractional, huge, zero, negative, seconds and non-finite values are rejected the same way', () => {
    expect(readInstant(1767225600100.5)).toEqual(no('not-an-integer'));
    expect(readInstant(Number.POSITIVE_INFINITY)).toEqual(no('not-finite'));
    expect(readInstant(Number.NaN)).toEqual(no('not-finite'));
    for (const value of [0, -5, 1e20, 1767225600, 2 ** 53 + 2, '12345678901234567890'])
      expect(readInstant(value), String(value)).toEqual(no('out-of-range'));
  });

  it('null, a missing member and "" are absent, not rejected', () => {
    for (const value of [null, undefined, '']) expect(readInstant(value)).toEqual({ kind: 'absent' });
  });

  it('durations are whole non-negative safe integers or null', () => {
    expect(durationMsOrNull(9100)).toBe(9100);
    for (const value of [1.5, -1, 1e20, Number.NaN, '9100']) expect(durationMsOrNull(value)).toBeNull();
  });
});
