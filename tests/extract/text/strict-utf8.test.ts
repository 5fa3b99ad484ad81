import { describe, expect, it } from 'vitest';
import { decodeStrictUtf8, SourceEncodingInvalid } from '../../../src/extract/text/strict-utf8.js';

describe('deterministic text decoding', () => {
  it('decodes UTF-8 and strips exactly one leading BOM', () => {
    expect(decodeStrictUtf8(Buffer.from('\uFEFFhé', 'utf8'), 'jsonl')).toBe('hé');
  });

  it('rejects invalid UTF-8 instead of replacement-decoding it (SOURCE_ENCODING_INVALID)', () => {
    const error = (() => {
      try {
        decodeStrictUtf8(Buffer.from([0x68, 0xff, 0x69]), 'sqlite');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SourceEncodingInvalid);
    expect((error as SourceEncodingInvalid).code).toBe('SOURCE_ENCODING_INVALID');
  });

  it('rejects a BOM anywhere but byte 0, and a second leading BOM', () => {
    expect(() => decodeStrictUtf8(Buffer.from('a\uFEFFb', 'utf8'), 'jsonl')).toThrow(SourceEncodingInvalid);
    expect(() => decodeStrictUtf8(Buffer.from('\uFEFF\uFEFFb', 'utf8'), 'jsonl')).toThrow(
      SourceEncodingInvalid,
    );
  });

  it('rejects a leading BOM where none is allowed', () => {
    expect(() => decodeStrictUtf8(Buffer.from('\uFEFFx', 'utf8'), 'jsonl', false)).toThrow(
      SourceEncodingInvalid,
    );
  });

  it('rejects lone surrogates in driver-decoded strings', () => {
    expect(() => decodeStrictUtf8('a\uD800b', 'sqlite')).toThrow(SourceEncodingInvalid);
  });
});
