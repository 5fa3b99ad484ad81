/**
 * JSON-object records over physical lines: blank lines are skipped, a terminated line that is not a
 * JSON object is malformed (kept by index), a final unterminated unparsable line is a buffered tail.
 */
import type { JsonObject } from './capture-contribution.js';
import type { PhysicalLine } from './line-source.js';

export type JsonLine =
  | { kind: 'record'; lineIndex: number; record: JsonObject }
  | { kind: 'malformed'; lineIndex: number }
  | { kind: 'tail' };

function parseObject(text: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as JsonObject)
      : null;
  } catch {
    return null;
  }
}

export function* jsonLines(lines: Iterable<PhysicalLine>): Generator<JsonLine> {
  for (const line of lines) {
    if (line.text.trim().length === 0) continue;
    const record = parseObject(line.text);
    if (record !== null) yield { kind: 'record', lineIndex: line.index, record };
    else if (line.terminated) yield { kind: 'malformed', lineIndex: line.index };
    else yield { kind: 'tail' };
  }
}

/** The major of a declared version (`2`, `"2.1.0"`, `"v2"`), or null when none is declared. */
export function declaredMajor(value: unknown): string | null {
  if (typeof value === 'number') return String(Math.trunc(value));
  if (typeof value !== 'string') return null;
  const match = /^v?(\d+)/.exec(value.trim());
  return match ? match[1]! : value;
}
