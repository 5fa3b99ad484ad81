/**
 * The blob encryption keys Cursor keeps beside conversations (cursor-formats §7): never copied. A
 * preserved JSON value has them replaced by `<redacted>`; a session records only that one existed.
 */
export const ENCRYPTION_KEY_FIELDS = ['blobEncryptionKey', 'speculativeSummarizationEncryptionKey'] as const;

export function withoutEncryptionKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEncryptionKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] = (ENCRYPTION_KEY_FIELDS as readonly string[]).includes(key)
      ? '<redacted>'
      : withoutEncryptionKeys(field);
  }
  return out;
}

/** `{ hadBlobEncryptionKey: true, … }` for the key fields `doc` holds, or null when it holds none. */
export function encryptionKeyFlags(doc: Record<string, unknown> | null): Record<string, true> | null {
  const flags: Record<string, true> = {};
  for (const field of ENCRYPTION_KEY_FIELDS) {
    if (doc !== null && Object.hasOwn(doc, field) && doc[field] !== null && doc[field] !== '')
      flags[`had${field[0]!.toUpperCase()}${field.slice(1)}`] = true;
  }
  return Object.keys(flags).length > 0 ? flags : null;
}
