/**
 * Feeds many strings to SHA-256 as UTF-8 through one reused buffer: a concatenated rope would have
 * to be flattened first, costly for non-Latin-1 text. Short ASCII pieces are copied unit by unit,
 * cheaper than one native encode each.
 */
import * as crypto from 'node:crypto';
import {
  type ByteBuffer,
  byteBuffer,
  escapeJsonBytes,
  isPlainByte,
  MAX_ESCAPE_BYTES,
  writeEscape,
} from './json-escape-bytes.js';

const BUFFER_BYTES = 1 << 16;
/** A UTF-16 unit encodes to at most 3 UTF-8 bytes (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;
/** Text up to this many units is copied unit by unit while it is ASCII; longer text is encoded natively. */
const INLINE_CHARS = 128;
/** A string's raw UTF-8 is encoded into this scratch buffer in slices, then escaped. */
const scratch: ByteBuffer<Buffer> = byteBuffer(Buffer.allocUnsafe(BUFFER_BYTES));
const SLICE_CHARS = Math.floor(BUFFER_BYTES / MAX_BYTES_PER_UNIT);
/** Escaping resumes after a flush once less than this is left in the buffer. */
const MIN_ROOM = 1 << 12;
/**
 * The buffer of the last finished sink, reused by the next one: most hashes are small (tool and
 * message identities), and a fresh 64 KiB buffer each was a large share of their cost and of GC.
 */
let spare: ByteBuffer<Buffer> | null = null;

function takeBuffer(): ByteBuffer<Buffer> {
  const buffer = spare ?? byteBuffer(Buffer.allocUnsafe(BUFFER_BYTES));
  spare = null;
  return buffer;
}

/** One-shot SHA-256 (`crypto.hash`, Node ≥ 20.12), or null where this Node lacks it. */
const oneShot = typeof crypto.hash === 'function' ? crypto.hash : null;

export class Utf8HashSink {
  /** Created at the first flush: text that fits the buffer is hashed in one shot, with no `Hash` object. */
  #hash: crypto.Hash | null = null;
  readonly #buffer: ByteBuffer<Buffer> = takeBuffer();
  #used = 0;

  push(piece: string): void {
    if (piece.length > INLINE_CHARS) {
      this.#encode(piece);
      return;
    }
    this.#reserve(piece.length * MAX_BYTES_PER_UNIT);
    const bytes = this.#buffer.bytes;
    for (let i = 0; i < piece.length; i++) {
      const unit = piece.charCodeAt(i);
      if (unit >= 0x80) {
        this.#encode(piece.slice(i));
        return;
      }
      bytes[this.#used++] = unit;
    }
  }

  /**
   * Pushes `JSON.stringify(text)`. A well-formed string is escaped without building the escaped
   * copy (half of a view digest's cost once: most message text holds newlines or quotes): short
   * ASCII text unit by unit, the rest as UTF-8 bytes.
   */
  pushJsonString(text: string): void {
    const inline = Math.min(text.length, INLINE_CHARS);
    this.#reserve(inline * MAX_ESCAPE_BYTES + 2);
    const bytes = this.#buffer.bytes;
    const mark = this.#used;
    bytes[this.#used++] = 0x22;
    let at = 0;
    for (; at < inline; at++) {
      const unit = text.charCodeAt(at);
      if (unit >= 0x80) break;
      if (isPlainByte(unit)) bytes[this.#used++] = unit;
      else this.#used = writeEscape(unit, bytes, this.#used);
    }
    if (at < text.length) {
      // Checked only past the ASCII prefix (the reserve above kept it unflushed, so it can be undone).
      if (!text.isWellFormed()) {
        this.#used = mark;
        this.push(JSON.stringify(text));
        return;
      }
      this.#escapeUtf8(text, at);
    }
    this.#reserve(1);
    this.#buffer.bytes[this.#used++] = 0x22;
  }

  /** The digest; the sink must not be used afterwards (its buffer goes to the next sink). */
  digestHex(): string {
    spare = this.#buffer;
    if (this.#hash === null && oneShot !== null)
      return oneShot('sha256', this.#buffer.bytes.subarray(0, this.#used), 'hex');
    this.#flush();
    return this.#started().digest('hex');
  }

  #started(): crypto.Hash {
    this.#hash ??= crypto.createHash('sha256');
    return this.#hash;
  }

  #reserve(bytes: number): void {
    if (this.#used + bytes > BUFFER_BYTES) this.#flush();
  }

  #encode(text: string): void {
    const worst = text.length * MAX_BYTES_PER_UNIT;
    this.#reserve(worst);
    // Text too large for the buffer goes to the hash directly (the same UTF-8 bytes).
    if (worst > BUFFER_BYTES) this.#started().update(text, 'utf8');
    else this.#used += this.#buffer.bytes.write(text, this.#used, 'utf8');
  }

  /** Escapes the well-formed `text` from unit `start` as UTF-8, slice by slice through the scratch buffer. */
  #escapeUtf8(text: string, start: number): void {
    for (let at = start; at < text.length; ) {
      let end = Math.min(text.length, at + SLICE_CHARS);
      // Never split a surrogate pair: each slice must be well-formed on its own.
      if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
      this.#escape(scratch.bytes.write(text.slice(at, end), 0, 'utf8'));
      at = end;
    }
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
    this.#started().update(this.#buffer.bytes.subarray(0, this.#used));
    this.#used = 0;
  }
}
