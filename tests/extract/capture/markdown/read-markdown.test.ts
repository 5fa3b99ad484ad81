import { describe, expect, it } from 'vitest';
import {
  exportChat,
  exportChat2x,
  specStoryThinking,
  specStoryV1,
  specStoryV1Oldest,
  specStoryV2,
  specStoryV15,
} from '../../../../fixtures/capture/markdown-captures.js';
import { writeCapture } from '../../../../fixtures/capture/write-capture.js';
import { readPhysicalLines } from '../../../../src/extract/capture/line-source.js';
import { parseExportChat } from '../../../../src/extract/capture/markdown/export-chat-parser.js';
import type { MarkdownSurface } from '../../../../src/extract/capture/markdown/markdown-document.js';
import { readMarkdownDocument } from '../../../../src/extract/capture/markdown/read-markdown.js';
import { parseSpecStory } from '../../../../src/extract/capture/markdown/specstory-parser.js';
import { SourceLimitExceeded } from '../../../../src/extract/limits/limit-exceeded.js';
import { DEFAULT_READ_LIMITS } from '../../../../src/extract/limits/read-limits.js';
import { ReadCounters } from '../../../../src/extract/read-counters.js';
import { tempDir } from '../../../helpers/run-cli.js';

const FILES: [string, MarkdownSurface, string][] = [
  ['export chat', 'export-chat', exportChat({ turns: 6 })],
  ['export chat 2.x', 'export-chat', exportChat2x()],
  ['SpecStory v1 oldest', 'specstory', specStoryV1Oldest()],
  ['SpecStory v1', 'specstory', specStoryV1()],
  ['SpecStory v1.5', 'specstory', specStoryV15()],
  ['SpecStory v2', 'specstory', specStoryV2({ extraTurn: true })],
  ['SpecStory thinking', 'specstory', specStoryThinking()],
];

const read = (text: string, surface: MarkdownSurface, limits = DEFAULT_READ_LIMITS) =>
  readMarkdownDocument(writeCapture(tempDir(), 'chat.md', text), surface, limits, new ReadCounters());

/** The parse of every physical line as its own array entry: what the reader must equal. */
function lineByLine(text: string, surface: MarkdownSurface) {
  const path = writeCapture(tempDir(), 'chat.md', text);
  const lines = Array.from(readPhysicalLines(path, DEFAULT_READ_LIMITS, new ReadCounters()), (l) => l.text);
  return surface === 'export-chat' ? parseExportChat(lines) : parseSpecStory(lines);
}

const SPELLINGS = ['', ' \t', '\r', '  ', '\f\v'];

/** Every blank line becomes a run of mixed spellings, inside turns, fences and thinking too. */
function withBlankRuns(text: string): string {
  return text
    .split('\n')
    .flatMap((line, i) =>
      line === '' ? [SPELLINGS[i % 5]!, SPELLINGS[(i + 1) % 5]!, SPELLINGS[(i + 1) % 5]!, ''] : [line],
    )
    .join('\n');
}

describe('readMarkdownDocument: blank runs read as one line each, parse results exact', () => {
  for (const [name, surface, text] of FILES) {
    it(`${name}: equals the line-by-line parse, blank runs inside turns, fences and thinking kept verbatim`, () => {
      expect(read(text, surface)).toEqual(lineByLine(text, surface));
      const runs = withBlankRuns(text);
      const got = read(runs, surface);
      expect(got).toEqual(lineByLine(runs, surface));
    });
  }

  it('a run inside fenced code and inside thinking is expanded to its exact lines', () => {
    const chat = read(withBlankRuns(exportChat()), 'export-chat');
    expect(chat.turns[3]!.text).toMatch(/above\n(?:[ \t\f\v]*\n){3,}---/);
    const story = read(withBlankRuns(specStoryV2()), 'specstory');
    expect(story.turns[1]!.thinking).toContain('sorted.\n \t\n\n\n\nNewest');
  });

  it('blank runs at the start, at turn boundaries and at the end change nothing but line numbers', () => {
    const run = '\n'.repeat(200_000);
    const text = `${run}${exportChat2x().replace(/\n---\n/g, `\n${run}---\n${run}`)}${run}`;
    const got = read(text, 'export-chat');
    const clean = read(exportChat2x(), 'export-chat');
    expect(got.turns.map(({ line: _, ...turn }) => turn)).toEqual(
      clean.turns.map(({ line: _, ...turn }) => turn),
    );
    expect(got.turns[0]!.line).toBe(clean.turns[0]!.line + 600_000);
  });

  it('a blank line over jsonlRecordBytes is free at a boundary and SOURCE_LIMIT_EXCEEDED inside a turn', () => {
    const limits = { ...DEFAULT_READ_LIMITS, jsonlRecordBytes: 1024 };
    const long = ' '.repeat(4096);
    const clean = read(specStoryV2(), 'specstory');
    const boundary = read(`${long}\n${specStoryV2()}\n${long}`, 'specstory', limits);
    expect(boundary.turns.map(({ line: _, ...turn }) => turn)).toEqual(
      clean.turns.map(({ line: _, ...turn }) => turn),
    );
    const inside = specStoryV2().replace('sort the changelog', `sort\n${long}\nthe changelog`);
    expect(() => read(inside, 'specstory', limits)).toThrow(SourceLimitExceeded);
  });
});
