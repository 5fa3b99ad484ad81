/**
 * Reads a decoded JSON object's fields by type: a field that is present (and not null) with another
 * type than its reader expects is damage, never read as a default (an empty text, no title).
 */
export type FieldType = 'string' | 'number' | 'boolean' | 'object' | 'array';

function typeOf(value: unknown): FieldType | 'other' {
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' || type === 'object' ? type : 'other';
}

/** Whether `object` is damage for a reader of `fields`: empty, or one of them of another type. */
export function hasWrongTypedField(
  object: Readonly<Record<string, unknown>>,
  fields: Readonly<Record<string, FieldType>>,
): boolean {
  if (Object.keys(object).length === 0) return true;
  for (const [name, type] of Object.entries(fields)) {
    const value = object[name];
    if (value !== undefined && value !== null && typeOf(value) !== type) return true;
  }
  return false;
}
