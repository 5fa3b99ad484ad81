/**
 * Markdown session identity v1 when the file names no session: a hash of what a later, longer
 * export of the same chat still starts with (surface, title, first user message), never the path.
 */
import { canonicalHash } from '../../../shared/json/canonical-json.js';
import type { MarkdownSurface, MarkdownTurn } from './markdown-document.js';

export function markdownContentSessionId(
  surface: MarkdownSurface,
  title: string | null,
  turns: readonly MarkdownTurn[],
): string {
  const first = turns.find((turn) => turn.role === 'user') ?? turns[0];
  return `markdown:v1:${canonicalHash({ surface, title, first: first?.writtenText ?? null })}`;
}
