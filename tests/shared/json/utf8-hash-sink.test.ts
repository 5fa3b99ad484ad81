import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/shared/json/canonical-json.js';
import { Utf8HashSink } from '../../../src/shared/json/utf8-hash-sink.js';

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
      pieces.push(i % 3 === 0 ? ',' : `"k${i}${i % 5 === 0 ? '→😀' : ''}":`);
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

  it('keeps sinks that are open at the same time apart, before and after one finishes', () => {
    const a = new Utf8HashSink();
    const b = new Utf8HashSink();
    a.push('é'.repeat(5000));
    b.push('x'.repeat(3000));
    a.push('tail-a');
    expect(a.digestHex()).toBe(sha256Hex(`${'é'.repeat(5000)}tail-a`));
    const c = new Utf8HashSink();
    c.push('c'.repeat(4000));
    b.push('tail-b');
    expect(b.digestHex()).toBe(sha256Hex(`${'x'.repeat(3000)}tail-b`));
    expect(c.digestHex()).toBe(sha256Hex('c'.repeat(4000)));
  });

  it('hashes pushJsonString(text) as JSON.stringify(text), escapes, slices and lone surrogates included', () => {
    const controls = Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)).join('');
    const texts = [
      'short "quoted" \\ text\n',
      `${'line "one"\n\ttab é→日本😀'.repeat(400)}${controls}\u007f\u2028`,
      `${'a'.repeat(21_844)}😀${'b'.repeat(50_000)}`,
      '\n'.repeat(70_000),
      `${'x'.repeat(2000)}\ud800 lone ${'y'.repeat(2000)}`,
      `${'q'.repeat(3000)}\udc00`,
    ];
    const sink = new Utf8HashSink();
    sink.push('[');
    for (const text of texts) {
      sink.pushJsonString(text);
      sink.push(',');
    }
    sink.push(']');
    const expected = `[${texts.map((t) => `${JSON.stringify(t)},`).join('')}]`;
    expect(sink.digestHex()).toBe(sha256Hex(Buffer.from(expected, 'utf8')));
  });
});
