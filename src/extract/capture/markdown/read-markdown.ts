/**
 * Reads a Markdown capture (streamed by line under the read limits) and parses it by surface. Runs
 * of two or more blank lines reach the parsers as one line each, so memory follows the text, not
 * the blank bytes; turns keep their physical line numbers.
 */
import type { ReadLimits } from '../../limits/read-limits.js';
import type { ReadCounters } from '../../read-counters.js';
import { readPhysicalLines } from '../line-source.js';
import { BlankRuns } from './blank-runs.js';
import { parseExportChat } from './export-chat-parser.js';
import type { MarkdownDocument, MarkdownSurface } from './markdown-document.js';
import { parseSpecStory } from './specstory-parser.js';

const ASCII_BLANK = /^[ \t\r\v\f]*$/;

export function readMarkdownDocument(
  path: string,
  surface: MarkdownSurface,
  limits: ReadLimits,
  counters: ReadCounters,
): MarkdownDocument {
  const runs = new BlankRuns(limits.jsonlRecordBytes);
  const lines: string[] = [];
  /** The physical index of each of `lines`. */
  const physical: number[] = [];
  let run: { text: string | null; count: number }[] = [];
  let runStart = 0;
  const flush = (): void => {
    if (run.length === 0) return;
    const single = run.length === 1 && run[0]!.count === 1 && run[0]!.text !== null;
    lines.push(single ? run[0]!.text! : runs.add(run));
    physical.push(runStart);
    run = [];
  };
  for (const line of readPhysicalLines(path, limits, counters, { blankLinesAreNoRecords: true })) {
    const text = line.droppedBlankBytes === undefined ? line.text : null;
    if (text === null || ASCII_BLANK.test(text)) {
      if (run.length === 0) runStart = line.index;
      const previous = run[run.length - 1];
      const count = line.repeat ?? 1;
      if (previous !== undefined && text !== null && previous.text === text) previous.count += count;
      else run.push({ text, count });
      continue;
    }
    flush();
    lines.push(text);
    physical.push(line.index);
  }
  flush();
  const document = surface === 'export-chat' ? parseExportChat(lines, runs) : parseSpecStory(lines, runs);
  return { ...document, turns: document.turns.map((turn) => ({ ...turn, line: physical[turn.line]! })) };
}
