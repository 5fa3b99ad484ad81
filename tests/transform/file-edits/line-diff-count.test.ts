import { describe, expect, it } from 'vitest';
import {
  countTextChange,
  countUnifiedDiff,
  MAX_EDIT_DISTANCE,
  textLines,
} from '../../../src/transform/file-edits/line-diff-count.js';

describe('line diff counter', () => {
  it('splits lines on every newline form; a final newline ends the last line', () => {
    expect(textLines('')).toEqual([]);
    expect(textLines('a\r\nb\rc\n')).toEqual(['a', 'b', 'c']);
    expect(textLines('a\n\n')).toEqual(['a', '']);
  });

  it('counts a unified diff outside its file headers; text that is no diff is null', () => {
    const diff =
      '--- a/x.ts\n+++ b/x.ts\n@@ -1,3 +1,3 @@\n keep\n-old\n+new\n+more\n\\ No newline at end of file\n';
    expect(countUnifiedDiff(diff)).toEqual({ added: 2, removed: 1 });
    expect(countUnifiedDiff('+only')).toEqual({ added: 1, removed: 0 });
    expect(countUnifiedDiff('plain words')).toBeNull();
  });

  it('counts old → new by a shortest edit script: added − removed is the line-count change', () => {
    expect(countTextChange('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual({ added: 2, removed: 1 });
    expect(countTextChange('same\n', 'same\n')).toEqual({ added: 0, removed: 0 });
    expect(countTextChange('', 'x\ny')).toEqual({ added: 2, removed: 0 });
    expect(countTextChange('x\ny\n', '')).toEqual({ added: 0, removed: 2 });
    expect(countTextChange('a\nb\nc\nd', 'b\na\nd\nc')).toEqual({ added: 2, removed: 2 });
  });

  it('is deterministic and leaves counts unknown beyond the edit-distance bound', () => {
    const many = (prefix: string) =>
      Array.from({ length: MAX_EDIT_DISTANCE }, (_, i) => `${prefix}${i}`).join('\n');
    expect(countTextChange(many('a'), many('b'))).toBeNull();
    const small = (prefix: string) => Array.from({ length: 50 }, (_, i) => `${prefix}${i}`).join('\n');
    expect(countTextChange(small('a'), small('b'))).toEqual({ added: 50, removed: 50 });
    expect(countTextChange(small('a'), small('b'))).toEqual(countTextChange(small('a'), small('b')));
  });
});
