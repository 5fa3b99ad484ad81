import { describe, expect, it } from 'vitest';
import { instantText } from '../../../src/load/duckdb/instant-text.js';

const MS = 1_769_902_200_000n; // 2026-01-31T23:30:00Z
const micros = (ms: bigint, extra = 0n): bigint => ms * 1000n + extra;

describe('TIMESTAMPTZ text in a named zone, never the machine offset', () => {
  it.each([
    ['UTC', '2026-01-31 23:30:00+00'],
    ['Asia/Kolkata', '2026-02-01 05:00:00+05:30'],
    ['America/Los_Angeles', '2026-01-31 15:30:00-08'],
    ['Pacific/Chatham', '2026-02-01 13:15:00+13:45'],
  ])('%s', (zone, text) => {
    expect(instantText(micros(MS), zone)).toBe(text);
  });

  it('follows daylight saving time of the instant itself', () => {
    expect(instantText(micros(1_783_000_000_000n), 'America/Los_Angeles')).toBe('2026-07-02 06:46:40-07');
  });

  it('writes the fraction as DuckDB does (trailing zeros dropped), before the epoch too', () => {
    expect(instantText(micros(MS, 123_000n), 'UTC')).toBe('2026-01-31 23:30:00.123+00');
    expect(instantText(micros(MS, 5n), 'UTC')).toBe('2026-01-31 23:30:00.000005+00');
    expect(instantText(-1n, 'UTC')).toBe('1969-12-31 23:59:59.999999+00');
  });

  it('leaves instants a date cannot hold to the caller', () => {
    expect(instantText(9_223_372_036_854_775_807n, 'UTC')).toBeNull();
  });
});
