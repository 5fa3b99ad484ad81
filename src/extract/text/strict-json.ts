/**
 * `JSON.parse` for source text, rejecting what has no UTF-8 form: an escaped unpaired surrogate is
 * valid JSON but would be stored as U+FFFD, changing content and identity. It is
 * SOURCE_ENCODING_INVALID, in member names too.
 */
import { SourceEncodingInvalid } from './strict-utf8.js';

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Thrown from the reviver without building an error per value; mapped once below. */
const UNPAIRED = Symbol('unpaired surrogate');

function rejectUnpaired(key: string, value: unknown): unknown {
  if (!key.isWellFormed() || (typeof value === 'string' && !value.isWellFormed())) throw UNPAIRED;
  return value;
}

/**
 * Parses `text` (already strictly decoded); a syntax error is thrown as by `JSON.parse`. Most texts
 * hold no `\u` escape: one native search first spares the pattern and the reviver.
 */
export function parseStrictJson(text: string, sourceKind: string): unknown {
  if (text.indexOf('\\u') === -1 || !SURROGATE_ESCAPE.test(text)) return JSON.parse(text);
  try {
    return JSON.parse(text, rejectUnpaired);
  } catch (error) {
    if (error === UNPAIRED) throw new SourceEncodingInvalid('unpaired-surrogate', sourceKind);
    throw error;
  }
}
