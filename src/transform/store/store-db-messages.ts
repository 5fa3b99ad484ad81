/**
 * store.db leaves → view messages (cursor-formats §2.4–§2.5): AI-SDK and OpenAI forms, `system`
 * ignored, `tool` leaves joined to calls by exact call ID. Missing blobs, malformed leaves,
 * unsupported blocks and orphan results make the view partial; nothing is guessed.
 */

import type { SessionOccurrence } from '../../extract/source-adapter.js';
import type { StoreLeaf } from '../../extract/store/store-contribution.js';
import { rowSource } from '../row-source.js';
import type { ViewMessage } from '../session-view.js';
import {
  asObject,
  asString,
  type BlockCall,
  readBlocks,
  TOOL_RESULT_BLOCKS,
  toolParams,
} from './store-blocks.js';
import { StoreIdentityAllocator } from './store-identity.js';
import { storeMessage } from './store-message.js';
import { buildToolCalls, readToolResult, type ToolResult } from './store-tool-calls.js';

export interface StoreMessagesResult {
  messages: ViewMessage[];
  /** Problem kind → count; any entry makes the view partial. */
  problems: Record<string, number>;
}

function openAiCalls(message: Record<string, unknown>): BlockCall[] {
  if (!Array.isArray(message.tool_calls)) return [];
  return message.tool_calls.flatMap((raw) => {
    const call = asObject(raw);
    const fn = asObject(call?.function);
    const name = asString(fn?.name);
    return name === null ? [] : [{ nativeId: asString(call?.id), name, params: toolParams(fn?.arguments) }];
  });
}

/** Tool results a leaf carries: a `tool` leaf (AI-SDK blocks or OpenAI form) or inline result blocks. */
function leafResults(message: Record<string, unknown> | null): ReturnType<typeof readToolResult>[] {
  if (message === null) return [];
  const blocks = Array.isArray(message.content) ? message.content.map(asObject) : [];
  const resultBlocks = blocks.filter((b): b is Record<string, unknown> =>
    TOOL_RESULT_BLOCKS.has(String(b?.type)),
  );
  if (message.role !== 'tool') return resultBlocks.map((b) => readToolResult(b, null));
  return resultBlocks.length > 0
    ? resultBlocks.map((b) => readToolResult(b, null))
    : [readToolResult(message, asString(message.tool_call_id))];
}

export function storeDbMessages(
  leaves: readonly StoreLeaf[],
  occurrence: SessionOccurrence,
): StoreMessagesResult {
  const problems: Record<string, number> = {};
  const problem = (kind: string): void => {
    problems[kind] = (problems[kind] ?? 0) + 1;
  };
  const results = new Map<string, ToolResult>();
  for (const leaf of leaves) {
    for (const { callId, result } of leafResults(leaf.message)) {
      if (callId === null) problem('unkeyed-tool-result');
      else results.set(callId, result);
    }
  }
  const allocator = new StoreIdentityAllocator('db');
  const used = new Set<string>();
  const messages: ViewMessage[] = [];
  for (const leaf of leaves) {
    if (leaf.problem !== null || leaf.message === null) {
      problem(leaf.problem ?? 'malformed-leaf');
      continue;
    }
    const role = leaf.message.role;
    if (role === 'tool' || role === 'system') continue;
    if (role !== 'user' && role !== 'assistant') {
      problem('unsupported-role');
      continue;
    }
    const blocks = readBlocks(leaf.message.content);
    for (const kind of blocks.unsupported) problem(`unsupported-block:${kind}`);
    const calls = [...blocks.calls, ...openAiCalls(leaf.message)];
    if (blocks.text === '' && calls.length === 0) {
      problem('empty-message');
      continue;
    }
    const messageId = allocator.next(leaf.hash);
    messages.push(
      storeMessage({
        messageId,
        identityOrigin: 'store-db-v1',
        role,
        content: blocks.text,
        thinking: blocks.thinking,
        toolCalls: buildToolCalls(calls, messageId, results, used),
        sources: [rowSource(occurrence, `store-db:blob:${leaf.hash}`)],
      }),
    );
  }
  for (const callId of results.keys()) if (!used.has(callId)) problem('orphan-tool-result');
  return { messages, problems };
}
