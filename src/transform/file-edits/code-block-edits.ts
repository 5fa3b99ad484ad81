/**
 * Composer `codeBlockData` (`{<file URI>: [entry…]}`, or entries keyed by version): one edit per entry
 * whose `bubbleId` names a message of the view, with its `content`, `status`, and line counts from
 * the `codeBlockDiff` row its `diffId` names (NULL without one).
 */
import type { ViewMessage } from '../session-view.js';
import { codeBlockDiffCounts } from './code-block-diff-counts.js';
import type { CodeBlockEdit } from './file-edit-rows.js';

type Json = Record<string, unknown>;

function object(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

function entriesOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  const byVersion = object(value);
  return byVersion === null
    ? []
    : Object.keys(byVersion)
        .sort()
        .map((key) => byVersion[key]);
}

export function codeBlockEdits(
  codeBlockData: unknown,
  messages: readonly ViewMessage[],
  diffs: ReadonlyMap<string, unknown> = new Map(),
): CodeBlockEdit[] {
  const data = object(codeBlockData);
  if (data === null) return [];
  const order = new Map(messages.map((m, i) => [m.messageId, i]));
  const found: { at: number; index: number; uri: string; edit: CodeBlockEdit }[] = [];
  for (const uri of Object.keys(data).sort()) {
    for (const raw of entriesOf(data[uri])) {
      const entry = object(raw);
      const bubbleId = entry?.bubbleId;
      if (entry === null || typeof bubbleId !== 'string' || !order.has(bubbleId)) continue;
      const problems: string[] = [];
      const content = entry.content;
      if (content !== undefined && content !== null && typeof content !== 'string')
        problems.push('codeBlockData.content');
      const status = entry.status;
      if (status !== undefined && status !== null && typeof status !== 'string')
        problems.push('codeBlockData.status');
      const diffId = entry.diffId;
      const counts =
        typeof diffId === 'string' && diffs.has(diffId)
          ? codeBlockDiffCounts(diffs.get(diffId), problems)
          : null;
      const index = entry.codeBlockIdx;
      const blockIndex = typeof index === 'number' && Number.isSafeInteger(index) ? index : null;
      found.push({
        at: order.get(bubbleId)!,
        index: blockIndex ?? -1,
        uri,
        edit: {
          messageId: bubbleId,
          status: typeof status === 'string' ? status : null,
          candidate: {
            path: uri,
            counts,
            diff: null,
            oldText: null,
            newText: typeof content === 'string' ? content : null,
            extensions: blockIndex === null ? null : { codeBlockIdx: blockIndex },
            problems,
          },
        },
      });
    }
  }
  // Stable sort: entries of one block keep their stored order.
  return found
    .sort((a, b) => a.at - b.at || a.index - b.index || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0))
    .map((f) => f.edit);
}
