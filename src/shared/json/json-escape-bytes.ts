/**
 * JSON.stringify's string escaping applied to UTF-8 bytes: it escapes only ASCII (`"`, `\`, C0
 * controls), so multi-byte sequences pass through unchanged. Lone surrogates have no UTF-8 form:
 * callers handle them first.
 */

/** The longest escape of one byte (`\u001f`). */
export const MAX_ESCAPE_BYTES = 6;

/** A byte buffer with a DataView of the same memory, so plain text is copied four bytes at a time. */
export interface ByteBuffer<T extends Uint8Array = Uint8Array> {
  readonly bytes: T;
  readonly words: DataView;
}

export function byteBuffer<T extends Uint8Array>(bytes: T): ByteBuffer<T> {
  return { bytes, words: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

const NAMED: Record<number, string> = { 8: 'b', 9: 't', 10: 'n', 12: 'f', 13: 'r', 34: '"', 92: '\\' };

/** The escape of each byte below 0x20 and of `"` and `\` (ASCII bytes). */
const ESCAPES: Uint8Array[] = Array.from({ length: 0x5d }, (_, byte) => {
  const named = NAMED[byte];
  const text = named !== undefined ? `\\${named}` : `\\u${byte.toString(16).padStart(4, '0')}`;
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
});

const ONES = 0x01010101;
const HIGH_BITS = 0x80808080;

/**
 * True when no byte of the little-endian `word` needs an escape. `(w - n·ONES) & ~w` has a high
 * bit set exactly when some byte of `w` is below `n` (n ≤ 0x80; the borrow trick is exact as a
 * yes/no), so a word is plain when no byte is below 0x20 and no byte equals `"` or `\`.
 */
function plainWord(word: number): boolean {
  const quote = word ^ 0x22222222;
  const backslash = word ^ 0x5c5c5c5c;
  const special =
    ((word - 0x20 * ONES) & ~word) | ((quote - ONES) & ~quote) | ((backslash - ONES) & ~backslash);
  return (special & HIGH_BITS) === 0;
}

/**
 * Writes `source[start, end)` escaped into `target` from `at`, which must have room for
 * `MAX_ESCAPE_BYTES` per source byte; returns the end offset in `target`.
 */
export function escapeJsonBytes(
  source: ByteBuffer,
  start: number,
  end: number,
  target: ByteBuffer,
  at: number,
): number {
  const from = source.bytes;
  const to = target.bytes;
  let out = at;
  for (let i = start; i < end; ) {
    // Most text has an escape only every few dozen bytes: copy whole plain words between them.
    if (i + 4 <= end) {
      const word = source.words.getUint32(i, true);
      if (plainWord(word)) {
        target.words.setUint32(out, word, true);
        out += 4;
        i += 4;
        continue;
      }
    }
    const byte = from[i++]!;
    if (isPlainByte(byte)) to[out++] = byte;
    else out = writeEscape(byte, to, out);
  }
  return out;
}

/** True when the byte (or a UTF-16 unit below 0x80) is written as itself. */
export function isPlainByte(unit: number): boolean {
  return unit >= 0x20 && unit !== 0x22 && unit !== 0x5c;
}

/** Writes the escape of a byte that is not plain (below 0x20, `"` or `\`); returns the end offset. */
export function writeEscape(byte: number, target: Uint8Array, at: number): number {
  const sequence = ESCAPES[byte]!;
  for (let k = 0; k < sequence.length; k++) target[at + k] = sequence[k]!;
  return at + sequence.length;
}
