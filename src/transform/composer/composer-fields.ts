/** Small, tolerant readers for Composer JSON fields (shapes drift between Cursor versions). */
export type JsonObject = Record<string, unknown>;

export function asObject(value: unknown): JsonObject | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : null;
}

export function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
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
