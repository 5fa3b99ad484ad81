/** Reads a Markdown capture (streamed by line under the read limits) and parses it by surface. */
import type { ReadLimits } from '../../limits/read-limits.js';
import type { ReadCounters } from '../../read-counters.js';
import { readPhysicalLines } from '../line-source.js';
import { parseExportChat } from './export-chat-parser.js';
import type { MarkdownDocument, MarkdownSurface } from './markdown-document.js';
import { parseSpecStory } from './specstory-parser.js';

export function readMarkdownDocument(
  path: string,
  surface: MarkdownSurface,
  limits: ReadLimits,
  counters: ReadCounters,
): MarkdownDocument {
  const lines = Array.from(readPhysicalLines(path, limits, counters), (line) => line.text);
  return surface === 'export-chat' ? parseExportChat(lines) : parseSpecStory(lines);
}
