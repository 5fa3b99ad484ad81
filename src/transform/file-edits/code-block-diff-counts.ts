/**
 * Line counts of a code block from its `codeBlockDiff` row's `newModelDiffWrtV0` hunks (cursor-formats
 * §8.5 step 1): added = non-empty `modified` lines, removed = summed original range lengths. A wrong
 * type or range leaves both unknown, named in `problems`.
 */
import type { EditCounts } from './edit-shapes.js';

type Json = Record<string, unknown>;

function object(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

function lineNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** Non-empty lines of `modified`, or null when it is neither a string nor an array of strings. */
function addedLines(modified: unknown): number | null {
  const lines =
    typeof modified === 'string' ? modified.split('\n').map((line) => line.replace(/\r$/, '')) : modified;
  if (!Array.isArray(lines) || !lines.every((line) => typeof line === 'string')) return null;
  return lines.filter((line) => line !== '').length;
}

/** Removed lines of one hunk, or null when its range is not two line numbers in order. */
function removedLines(original: unknown): number | null {
  const range = object(original);
  const start = lineNumber(range?.startLineNumber);
  const end = lineNumber(range?.endLineNumberExclusive);
  return start === null || end === null || end < start ? null : end - start;
}

export function codeBlockDiffCounts(value: unknown, problems: string[]): EditCounts | null {
  const diff = object(value);
  if (diff === null) {
    problems.push('codeBlockDiff');
    return null;
  }
  const hunks = diff.newModelDiffWrtV0;
  if (!Array.isArray(hunks)) {
    problems.push('codeBlockDiff.newModelDiffWrtV0');
    return null;
  }
  let added = 0;
  let removed = 0;
  for (const raw of hunks) {
    const hunk = object(raw);
    const plus = addedLines(hunk?.modified);
    const minus = removedLines(hunk?.original);
    if (hunk === null || plus === null || minus === null) {
      problems.push(
        hunk === null
          ? 'codeBlockDiff.newModelDiffWrtV0'
          : plus === null
            ? 'codeBlockDiff.modified'
            : 'codeBlockDiff.original',
      );
      return null;
    }
    added += plus;
    removed += minus;
  }
  return { added, removed };
}
