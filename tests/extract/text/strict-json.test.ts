import { describe, expect, it } from 'vitest';
import { parseStrictJson } from '../../../src/extract/text/strict-json.js';
import { SourceEncodingInvalid } from '../../../src/extract/text/strict-utf8.js';

function problemOf(text: string): string | null {
  try {
    parseStrictJson(text, 'jsonl');
    return null;
  } catch (error) {
    return error instanceof SourceEncodingInvalid ? error.problem : `other: ${String(error)}`;
  }
}

describe('strict JSON: "Invalid or mixed encoding is not guessed, transcoded, or replacement-decoded"', () => {
  it('parses text without surrogate escapes, and escaped pairs, as JSON.parse does', () => {
    expect(parseStrictJson('{"a":"x\\u00e9","b":[1,null]}', 'jsonl')).toEqual({ a: 'xé', b: [1, null] });
    expect(parseStrictJson('{"e":"\\ud83d\\ude00","k\\uD83D\\uDE00":1}', 'jsonl')).toEqual({
      e: '😀',
      'k😀': 1,
    });
    // An escaped backslash before `ud800` spells six characters, not a surrogate.
    expect(parseStrictJson('{"p":"C:\\\\ud800"}', 'jsonl')).toEqual({ p: 'C:\\ud800' });
  });

  it('rejects an unpaired surrogate escape in a value, a member name or a nested array as SOURCE_ENCODING_INVALID', () => {
    expect(problemOf('{"t":"a\\ud800b"}')).toBe('unpaired-surrogate');
    expect(problemOf('{"t":"\\uDC00"}')).toBe('unpaired-surrogate');
    expect(problemOf('{"t":"\\ude00\\ud83d"}')).toBe('unpaired-surrogate');
    expect(problemOf('{"k\\ud800":1}')).toBe('unpaired-surrogate');
    expect(problemOf('{"a":[{"b":["ok","\\udbff"]}]}')).toBe('unpaired-surrogate');
  });

  it('throws the syntax error of invalid JSON, whether or not it escapes a surrogate', () => {
    expect(() => parseStrictJson('{"t":', 'jsonl')).toThrow(SyntaxError);
    expect(() => parseStrictJson('{"t":"\\ud800"', 'jsonl')).toThrow(SyntaxError);
  });

  it('names the source kind in the error details', () => {
    try {
      parseStrictJson('"\\ud800"', 'meta-json');
      expect.unreachable();
    } catch (error) {
      expect((error as SourceEncodingInvalid).details).toMatchObject({
        problem: 'unpaired-surrogate',
        sourceKind: 'meta-json',
      });
    }
  });
});
