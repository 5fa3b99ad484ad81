/** Small, tolerant readers for Composer JSON fields (shapes drift between Cursor versions). */
export type JsonObject = Record<string, unknown>;

const MAX_EPOCH_MS = 8.64e15;

export function asObject(value: unknown): JsonObject | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : null;
}

export function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** Epoch milliseconds from a number, a numeric string or an ISO string; null when absent/invalid. */
export function epochMs(value: unknown, { allowIso = false } = {}): number | null {
  // Beyond JS Date's range a value is not a time (and would overflow the warehouse timestamp).
  if (typeof value === 'number') return value > 0 && value <= MAX_EPOCH_MS ? Math.trunc(value) : null;
  if (typeof value !== 'string' || value.length === 0) return null;
  if (/^[0-9]+$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) && n > 0 && n <= MAX_EPOCH_MS ? n : null;
  }
  if (!allowIso) return null;
  const parsed = Date.parse(value);
  return Number.isFinite(parsed) ? parsed : null;
}

export function positiveInt(value: unknown): number | null {
  return typeof value === 'number' && value > 0 && Number.isSafeInteger(Math.trunc(value))
    ? Math.trunc(value)
    : null;
}

/** Parses a JSON string field; returns `{ _raw }` when it is a string but not a JSON object/array. */
export function parseJsonField(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed !== null && typeof parsed === 'object' ? parsed : { _raw: value };
  } catch {
    return { _raw: value };
  }
}
