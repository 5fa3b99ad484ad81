/**
 * Feeds many strings to SHA-256 as UTF-8 through one reused buffer. Concatenating every piece into
 * a long string first builds a rope that V8 must flatten before hashing, which costs several times
 * the hash itself when the text has non-Latin-1 characters. Short pieces (punctuation, keys,
 * numbers) are still joined into a short string, because one native encode per tiny piece costs
 * more than the concatenation.
 */
import { createHash, type Hash } from 'node:crypto';
import { escapeJsonBytes, MAX_ESCAPE_BYTES } from './json-escape-bytes.js';

const BUFFER_BYTES = 1 << 16;
/** A UTF-16 unit encodes to at most 3 UTF-8 bytes (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;
const SHORT_CHARS = 1 << 10;
/** A long string's raw UTF-8 is encoded into this scratch buffer in slices, then escaped. */
const scratch = Buffer.allocUnsafe(BUFFER_BYTES);
const SLICE_CHARS = Math.floor(BUFFER_BYTES / MAX_BYTES_PER_UNIT);
/** Escaping resumes after a flush once less than this is left in the buffer. */
const MIN_ROOM = 1 << 12;
/**
 * The buffer of the last finished sink, reused by the next one: most hashes are small (tool and
 * message identities), and a fresh 64 KiB buffer each was a large share of their cost and of GC.
 */
let spare: Buffer | null = null;

function takeBuffer(): Buffer {
  const buffer = spare ?? Buffer.allocUnsafe(BUFFER_BYTES);
  spare = null;
  return buffer;
}

export class Utf8HashSink {
  readonly #hash: Hash = createHash('sha256');
  readonly #buffer: Buffer = takeBuffer();
  #used = 0;
  #short = '';

  push(piece: string): void {
    if (piece.length < SHORT_CHARS) {
      this.#short += piece;
      if (this.#short.length < SHORT_CHARS) return;
      piece = this.#short;
    } else if (this.#short !== '') {
      this.#encode(this.#short);
    }
    this.#short = '';
    this.#encode(piece);
  }

  /**
   * Pushes `JSON.stringify(text)`. A long well-formed string is escaped as UTF-8 bytes instead:
   * the escaped copy JSON.stringify builds was half of a view digest's cost (most message text
   * holds newlines or quotes).
   */
  pushJsonString(text: string): void {
    if (text.length < SHORT_CHARS || !text.isWellFormed()) {
      this.push(JSON.stringify(text));
      return;
    }
    this.#encode(`${this.#short}"`);
    for (let at = 0; at < text.length; ) {
      let end = Math.min(text.length, at + SLICE_CHARS);
      // Never split a surrogate pair: each slice must be well-formed on its own.
      if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
      this.#escape(scratch.write(text.slice(at, end), 0, 'utf8'));
      at = end;
    }
    this.#short = '"';
  }

  /** The digest; the sink must not be used afterwards (its buffer goes to the next sink). */
  digestHex(): string {
    this.#encode(this.#short);
    this.#short = '';
    this.#flush();
    spare = this.#buffer;
    return this.#hash.digest('hex');
  }

  #encode(text: string): void {
    const worst = text.length * MAX_BYTES_PER_UNIT;
    if (this.#used + worst > BUFFER_BYTES) this.#flush();
    // Text too large for the buffer goes to the hash directly (the same UTF-8 bytes).
    if (worst > BUFFER_BYTES) this.#hash.update(text, 'utf8');
    else this.#used += this.#buffer.write(text, this.#used, 'utf8');
  }

  /** Escapes `scratch[0, length)` into the buffer, flushing it when it fills. */
  #escape(length: number): void {
    for (let i = 0; i < length; ) {
      if (BUFFER_BYTES - this.#used < MIN_ROOM) this.#flush();
      const take = Math.min(length - i, Math.floor((BUFFER_BYTES - this.#used) / MAX_ESCAPE_BYTES));
      this.#used = escapeJsonBytes(scratch, i, i + take, this.#buffer, this.#used);
      i += take;
    }
  }

  #flush(): void {
    if (this.#used === 0) return;
    this.#hash.update(this.#buffer.subarray(0, this.#used));
    this.#used = 0;
  }
}
