/**
 * Comments say what the code cannot, in a sentence or two: no comment block (consecutive `//` or
 * `#` lines, or one `/* *\/` block) in the project's code is longer than 300 characters of text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = ['src', 'bench', 'fixtures', 'tests', 'bin'];
const MAX_CHARS = 300;

interface Block {
  line: number;
  text: string;
}

function files(): string[] {
  return FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.(ts|js|mjs|cjs)$/.test(name) || folder === 'bin')
      .map((name) => join(folder, name).split('\\').join('/')),
  );
}

/** The text of a comment without its markers, lines joined by a space. */
function commentText(raw: string): string {
  const lines = raw.startsWith('/*')
    ? raw
        .replace(/^\/\*+/, '')
        .replace(/\*\/$/, '')
        .split('\n')
        .map((line) => line.replace(/^\s*\*?/, ''))
    : raw.split('\n').map((line) => line.replace(/^\s*(\/\/|#)/, ''));
  return lines
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join(' ');
}

/** Every comment of a TypeScript or JavaScript file, found through the parsed tree. */
function scriptComments(text: string): ts.CommentRange[] {
  const source = ts.createSourceFile('file.ts', text, ts.ScriptTarget.Latest, true);
  const seen = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node): void => {
    for (const range of [
      ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
      ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
    ])
      seen.set(range.pos, range);
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen.values()].sort((a, b) => a.pos - b.pos);
}

/** A shell script's `#` comments (the shebang excluded). */
function shellComments(text: string): ts.CommentRange[] {
  const ranges: ts.CommentRange[] = [];
  let pos = 0;
  for (const line of text.split('\n')) {
    const at = line.search(/^\s*#(?!!)/);
    if (at === 0) ranges.push({ pos, end: pos + line.length, kind: ts.SyntaxKind.SingleLineCommentTrivia });
    pos += line.length + 1;
  }
  return ranges;
}

/** Comment blocks: a `/* *\/` comment alone, or line comments on consecutive lines. */
function commentBlocks(text: string, shell = false): Block[] {
  const blocks: Block[] = [];
  let previous: ts.CommentRange | null = null;
  for (const range of shell ? shellComments(text) : scriptComments(text)) {
    const raw = text.slice(range.pos, range.end);
    const line = text.slice(0, range.pos).split('\n').length;
    const joins =
      previous !== null &&
      range.kind === ts.SyntaxKind.SingleLineCommentTrivia &&
      previous.kind === ts.SyntaxKind.SingleLineCommentTrivia &&
      /^[ \t]*\r?\n[ \t]*$/.test(text.slice(previous.end, range.pos));
    const last = blocks.at(-1);
    if (joins && last) last.text = `${last.text} ${commentText(raw)}`;
    else blocks.push({ line, text: commentText(raw) });
    previous = range;
  }
  return blocks;
}

describe('comment length', () => {
  it('measures blocks of line comments and single block comments', () => {
    const text = '// a\n// b\nconst x = "// not a comment";\n/** c\n * d */\nf(); // e\n';
    expect(commentBlocks(text).map((b) => b.text)).toEqual(['a b', 'c d', 'e']);
    expect(commentBlocks('#!/bin/sh\n# one\n# two\necho\n', true).map((b) => b.text)).toEqual(['one two']);
  });

  it(`no comment block in ${FOLDERS.join(', ')} is longer than ${MAX_CHARS} characters`, () => {
    const long = files().flatMap((file) =>
      commentBlocks(readFileSync(join(ROOT, file), 'utf8'), file.startsWith('bin/'))
        .filter((block) => block.text.length > MAX_CHARS)
        .map((block) => `${file}:${block.line} (${block.text.length} chars)`),
    );
    expect(long).toEqual([]);
  });
});
