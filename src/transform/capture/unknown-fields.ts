/** Fields of a source object this build does not interpret, kept verbatim (never dropped). */
import type { JsonObject } from '../../extract/capture/capture-contribution.js';

export function unknownFields(object: JsonObject, known: readonly string[]): JsonObject | null {
  const entries = Object.entries(object).filter(([key]) => !known.includes(key));
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}
