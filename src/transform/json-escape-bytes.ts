/**
 * JSON.stringify's string escaping applied to UTF-8 bytes. It escapes only `"`, `\` and C0
 * controls, all ASCII, so multi-byte sequences pass through unchanged and the bytes of a
 * well-formed string can be escaped without building the escaped string (lone surrogates, which
 * JSON.stringify writes as `\uXXXX`, have no UTF-8 form: callers must handle them first).
 */

/** The longest escape of one byte (`\u001f`). */
export const MAX_ESCAPE_BYTES = 6;

const NAMED: Record<number, string> = { 8: 'b', 9: 't', 10: 'n', 12: 'f', 13: 'r', 34: '"', 92: '\\' };

/** The escape of each byte below 0x20 and of `"` and `\` (ASCII bytes). */
const ESCAPES: Uint8Array[] = Array.from({ length: 0x5d }, (_, byte) => {
  const named = NAMED[byte];
  const text = named !== undefined ? `\\${named}` : `\\u${byte.toString(16).padStart(4, '0')}`;
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
});

/**
 * Writes `source[start, end)` escaped into `target` from `at`, which must have room for
 * `MAX_ESCAPE_BYTES` per source byte; returns the end offset in `target`.
 */
export function escapeJsonBytes(
  source: Uint8Array,
  start: number,
  end: number,
  target: Uint8Array,
  at: number,
): number {
  let out = at;
  for (let i = start; i < end; i++) {
    const byte = source[i]!;
    if (byte >= 0x20 && byte !== 0x22 && byte !== 0x5c) {
      target[out++] = byte;
      continue;
    }
    const sequence = ESCAPES[byte]!;
    for (let k = 0; k < sequence.length; k++) target[out++] = sequence[k]!;
  }
  return out;
}
