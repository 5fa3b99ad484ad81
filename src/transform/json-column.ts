/**
 * The text of a JSON column. Canonical JSON writes an unpaired surrogate as a `\udXXX` escape,
 * which DuckDB's JSON type rejects; such a value is stored as `{"_raw": <canonical text>}` (valid,
 * lossless, marked). Tool identities hash the value; the view digest, this text.
 */
import { canonicalJson } from '../shared/json/canonical-json.js';

/** A `\u` escape of a surrogate that is not itself escaped (preceded by an even number of `\`). */
const SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F]/;

export function jsonColumn(value: unknown): string {
  const text = canonicalJson(value);
  return text.includes('\\u') && SURROGATE_ESCAPE.test(text) ? canonicalJson({ _raw: text }) : text;
}
