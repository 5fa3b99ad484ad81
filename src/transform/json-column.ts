/**
 * The text of a JSON column. Canonical JSON writes an unpaired surrogate as a `\udXXX` escape,
 * which DuckDB's JSON type rejects; such a value is stored as `{"_raw": <canonical text>}` (valid,
 * lossless, marked). Tool identities hash the value; the view digest, this text.
 */
import { canonicalJson } from '../shared/json/canonical-json.js';

/** A `\u` escape of a surrogate that is not itself escaped (preceded by an even number of `\`). */
const SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F]/;

/** A JSON number a source wrote out of range (`1e400`) parses as ±Infinity: kept as a marked string. */
function finiteOnly(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : { _nonFinite: String(value) };
  if (Array.isArray(value)) return value.map(finiteOnly);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, finiteOnly(member)]));
  return value;
}

function canonicalFinite(value: unknown): string {
  try {
    return canonicalJson(value);
  } catch (error) {
    if ((error as { details?: { reason?: unknown } }).details?.reason !== 'non-finite number') throw error;
    return canonicalJson(finiteOnly(value));
  }
}

export function jsonColumn(value: unknown): string {
  const text = canonicalFinite(value);
  return text.includes('\\u') && SURROGATE_ESCAPE.test(text) ? canonicalJson({ _raw: text }) : text;
}
