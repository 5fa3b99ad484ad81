/**
 * The one reader of source time values (docs/time.md): epoch milliseconds (integer number or digit
 * string) or ISO 8601 with an explicit zone, between 2001-09-09 (1e12 ms) and year 9999; anything
 * else is unknown.
 */

/** Why a present value is not an instant; the field is then unknown. */
export const TIME_REJECTIONS = [
  'not-an-integer',
  'not-finite',
  'out-of-range',
  'zoneless',
  'not-a-time',
] as const;
export type TimeRejection = (typeof TIME_REJECTIONS)[number];

export type InstantReading =
  | { kind: 'absent' }
  | { kind: 'instant'; ms: number }
  | { kind: 'rejected'; reason: TimeRejection };

/** A rejected value of a named source field (e.g. `bubble.createdAt`); never the value itself. */
export interface TimeProblem {
  field: string;
  reason: TimeRejection;
}

export const MIN_INSTANT_MS = 1e12;
export const MAX_INSTANT_MS = 253_402_300_799_999;

const ABSENT: InstantReading = { kind: 'absent' };
const DIGITS = /^[0-9]+$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function rejected(reason: TimeRejection): InstantReading {
  return { kind: 'rejected', reason };
}

function fromNumber(value: number): InstantReading {
  if (!Number.isFinite(value)) return rejected('not-finite');
  if (!Number.isInteger(value)) return rejected('not-an-integer');
  return value >= MIN_INSTANT_MS && value <= MAX_INSTANT_MS
    ? { kind: 'instant', ms: value }
    : rejected('out-of-range');
}

function fromIso(match: RegExpExecArray): InstantReading {
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  if (zone === undefined) return rejected('zoneless');
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s ?? '0'].map(Number) as number[];
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (
    month! < 1 ||
    month! > 12 ||
    day! < 1 ||
    day! > daysInMonth ||
    hour! > 23 ||
    minute! > 59 ||
    second! > 59
  )
    return rejected('not-a-time');
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const offsetHours = Number(zone.slice(1, 3));
    const offsetMins = Number(zone.slice(4, 6));
    if (offsetHours > 23 || offsetMins > 59) return rejected('not-a-time');
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const millis = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
  // Years 0–99 read as 1900–1999 here: below the floor either way.
  return fromNumber(
    Date.UTC(year!, month! - 1, day!, hour!, minute!, second!, millis) - offsetMinutes * 60_000,
  );
}

/** Reads one source time value. `null`, `undefined` and `''` are absent, not rejected. */
export function readInstant(value: unknown): InstantReading {
  if (value === null || value === undefined || value === '') return ABSENT;
  if (typeof value === 'number') return fromNumber(value);
  if (typeof value !== 'string') return rejected('not-a-time');
  if (DIGITS.test(value)) return value.length > 16 ? rejected('out-of-range') : fromNumber(Number(value));
  const iso = ISO.exec(value);
  if (iso) return fromIso(iso);
  return DATE_ONLY.test(value) ? rejected('zoneless') : rejected('not-a-time');
}

/** The instant of `value`, or null when it is absent or rejected (for fields with no diagnostic of their own). */
export function instantOrNull(value: unknown): number | null {
  const reading = readInstant(value);
  return reading.kind === 'instant' ? reading.ms : null;
}

/**
 * Reads `value` of `field`: its instant, or null; a rejected value is recorded in `problems`
 * so the caller can report it.
 */
export function readTimeField(value: unknown, field: string, problems: TimeProblem[]): number | null {
  const reading = readInstant(value);
  if (reading.kind === 'rejected') problems.push({ field, reason: reading.reason });
  return reading.kind === 'instant' ? reading.ms : null;
}

/** A duration in whole milliseconds, or null for anything else (fractions, negatives, overflow). */
export function durationMsOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}
