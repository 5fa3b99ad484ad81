/**
 * Feeds many strings to SHA-256 as UTF-8 through one reused buffer. Concatenating every piece into
 * a long string first builds a rope that V8 must flatten before hashing, which costs several times
 * the hash itself when the text has non-Latin-1 characters. Short pieces (punctuation, keys,
 * numbers) are still joined into a short string, because one native encode per tiny piece costs
 * more than the concatenation.
 */
import { createHash, type Hash } from 'node:crypto';

const BUFFER_BYTES = 1 << 16;
/** A UTF-16 unit encodes to at most 3 UTF-8 bytes (a surrogate pair: 4 bytes for 2 units). */
const MAX_BYTES_PER_UNIT = 3;
const SHORT_CHARS = 1 << 10;
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

  #flush(): void {
    if (this.#used === 0) return;
    this.#hash.update(this.#buffer.subarray(0, this.#used));
    this.#used = 0;
  }
}
