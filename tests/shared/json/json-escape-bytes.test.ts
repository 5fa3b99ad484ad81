import { describe, expect, it } from 'vitest';
import { byteBuffer, escapeJsonBytes, MAX_ESCAPE_BYTES } from '../../../src/shared/json/json-escape-bytes.js';

function escaped(text: string): string {
  const source = Buffer.from(text, 'utf8');
  const target = Buffer.alloc(source.length * MAX_ESCAPE_BYTES + 4);
  target.write('"', 0);
  const end = escapeJsonBytes(byteBuffer(source), 0, source.length, byteBuffer(target), 1);
  target.write('"', end);
  return target.subarray(0, end + 1).toString('utf8');
}

describe('escapeJsonBytes', () => {
  it('escapes every byte below 0x80 as JSON.stringify escapes its character, alone and at each place in a word', () => {
    for (let c = 0; c < 0x80; c++) {
      const unit = String.fromCharCode(c);
      for (const text of [
        unit,
        `${unit}abcdefg`,
        `a${unit}bcdefg`,
        `ab${unit}cdefg`,
        `abc${unit}defg`,
        `abcd${unit}`,
      ]) {
        expect(escaped(text)).toBe(JSON.stringify(text));
      }
    }
  });

  it('leaves multi-byte characters unchanged and writes from the given range only', () => {
    const text = 'é→"日本"\n😀\\ \u2028';
    expect(escaped(text)).toBe(JSON.stringify(text));
    const source = Buffer.from('ab"cd', 'utf8');
    const target = Buffer.alloc(16);
    expect(escapeJsonBytes(byteBuffer(source), 1, 4, byteBuffer(target), 2)).toBe(6);
    expect(target.subarray(2, 6).toString('utf8')).toBe('b\\"c');
  });
});
