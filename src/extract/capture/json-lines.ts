/**
 * JSON-object records of a JSONL capture, over the shared frame scanner (`src/extract/jsonl`):
 * blank frames are skipped, a closed frame that is not a JSON object is malformed (kept by its
 * 1-based line), an unterminated tail is a record when it parses as a JSON object, else a buffered
 * tail.
 */
import { scanJsonlFrames } from '../jsonl/jsonl-frames.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import type { JsonObject } from './capture-contribution.js';

export type JsonLine =
  | { kind: 'record'; line: number; record: JsonObject }
  | { kind: 'malformed'; line: number }
  | { kind: 'tail' };

export async function* jsonLines(
  path: string,
  limits: ReadLimits,
  counters: ReadCounters,
): AsyncGenerator<JsonLine> {
  let bytes = 0;
  try {
    for await (const frame of scanJsonlFrames(path, { limits })) {
      bytes = frame.byteEnd;
      if (frame.record !== null) yield { kind: 'record', line: frame.line, record: frame.record };
      else if (frame.kind === 'malformed') yield { kind: 'malformed', line: frame.line };
      else yield { kind: 'tail' };
    }
  } finally {
    counters.chargePayload(bytes);
  }
}

/** The major of a declared version (`2`, `"2.1.0"`, `"v2"`), or null when none is declared. */
export function declaredMajor(value: unknown): string | null {
  if (typeof value === 'number') return String(Math.trunc(value));
  if (typeof value !== 'string') return null;
  const match = /^v?(\d+)/.exec(value.trim());
  return match ? match[1]! : value;
}
