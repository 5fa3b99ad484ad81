import { describe, expect, it } from 'vitest';
import { codeBlockDiffCounts } from '../../../src/transform/file-edits/code-block-diff-counts.js';

const hunk = (start: unknown, end: unknown, modified: unknown) => ({
  original: { startLineNumber: start, endLineNumberExclusive: end },
  modified,
});

function counts(value: unknown): { counts: unknown; problems: string[] } {
  const problems: string[] = [];
  return { counts: codeBlockDiffCounts(value, problems), problems };
}

describe('codeBlockDiff line counts (newModelDiffWrtV0)', () => {
  it('added = non-empty modified lines, removed = summed original range lengths', () => {
    const value = {
      newModelDiffWrtV0: [hunk(3, 6, ['a', '', 'b']), hunk(10, 10, ['c'])],
      originalModelDiffWrtV0: [hunk(1, 99, ['ignored'])],
    };
    expect(counts(value)).toEqual({ counts: { added: 3, removed: 3 }, problems: [] });
  });

  it('a string `modified` is split at line breaks; empty lines (and a final newline) do not count', () => {
    expect(counts({ newModelDiffWrtV0: [hunk(1, 2, 'one\r\n\ntwo\n')] }).counts).toEqual({
      added: 2,
      removed: 1,
    });
    expect(counts({ newModelDiffWrtV0: [] }).counts).toEqual({ added: 0, removed: 0 });
  });

  it('wrong types or ranges: both counts unknown, the field named, never a guess', () => {
    const cases: [unknown, string][] = [
      [null, 'codeBlockDiff'],
      [[1], 'codeBlockDiff'],
      [{ newModelDiffWrtV0: 'x' }, 'codeBlockDiff.newModelDiffWrtV0'],
      [{ newModelDiffWrtV0: [7] }, 'codeBlockDiff.newModelDiffWrtV0'],
      [{ newModelDiffWrtV0: [hunk(1, 2, ['a', 3])] }, 'codeBlockDiff.modified'],
      [{ newModelDiffWrtV0: [hunk(1, 2, { a: 1 })] }, 'codeBlockDiff.modified'],
      [{ newModelDiffWrtV0: [hunk(5, 2, ['a'])] }, 'codeBlockDiff.original'],
      [{ newModelDiffWrtV0: [hunk('1', 2, ['a'])] }, 'codeBlockDiff.original'],
      [{ newModelDiffWrtV0: [hunk(1.5, 2, ['a'])] }, 'codeBlockDiff.original'],
      [{ newModelDiffWrtV0: [hunk(-1, 2, ['a'])] }, 'codeBlockDiff.original'],
    ];
    for (const [value, field] of cases) expect(counts(value)).toEqual({ counts: null, problems: [field] });
  });
});
