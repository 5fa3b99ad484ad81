/**
 * The text of a JSON column. Canonical JSON writes a string's unpaired surrogate as a `\udXXX` escape
 * (JSON-in-a-string source fields, such as tool arguments cut mid-character, can hold one): DuckDB's
 * JSON type rejects that text, so any query parsing the column would fail, and no UTF-8 text can carry
 * the surrogate itself. Such a value is stored as `{"_raw": <its canonical text>}`: valid JSON,
 * nothing lost, and marked. Tool identities hash the value itself; the view digest, this text.
 */
import { canonicalJson } from '../shared/json/canonical-json.js';

/** A `\u` escape of a surrogate that is not itself escaped (preceded by an even number of `\`). */
const SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F]/;

export function jsonColumn(value: unknown): string {
  const text = canonicalJson(value);
  return text.includes('\\u') && SURROGATE_ESCAPE.test(text) ? canonicalJson({ _raw: text }) : text;
}
