import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/transform/canonical-json.js';
import { Utf8HashSink } from '../../src/transform/utf8-hash-sink.js';

function hashPieces(pieces: readonly string[]): string {
  const sink = new Utf8HashSink();
  for (const piece of pieces) sink.push(piece);
  return sink.digestHex();
}

describe('Utf8HashSink', () => {
  it('hashes no pieces as the SHA-256 of the empty string', () => {
    expect(hashPieces([])).toBe(sha256Hex(''));
  });

  it('equals the SHA-256 of the joined UTF-8 text across short, buffered and oversized pieces', () => {
    const pieces: string[] = [];
    for (let i = 0; i < 4000; i++) {
      pieces.push(i % 3 === 0 ? ',' : `"k${i}":`);
      if (i % 7 === 0) pieces.push(`é😀日本${'x'.repeat(i % 900)}`);
      if (i % 500 === 0) pieces.push(`→${'y'.repeat(30_000)}😀`);
      if (i % 1300 === 0) pieces.push('z'.repeat(200_000));
    }
    const text = pieces.join('');
    expect(text.length).toBeGreaterThan(1 << 20);
    expect(hashPieces(pieces)).toBe(sha256Hex(Buffer.from(text, 'utf8')));
  });

  it('keeps a surrogate pair that fills the buffer exactly intact', () => {
    const pieces = ['a'.repeat(1023), `${'b'.repeat(21_000)}😀`, '😀'.repeat(600), 'c'];
    expect(hashPieces(pieces)).toBe(sha256Hex(pieces.join('')));
  });
});
