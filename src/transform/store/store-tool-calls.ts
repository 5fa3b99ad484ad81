/**
 * Store tool calls → view tool calls. Every call gets tool identity v1 under its Store-side message
 * ID with `{name, params}` as input (a Store call carries neither `files` nor `sourceRelationships`);
 * the block's call ID is kept as `nativeCallId` and only joins the call to its result.
 */
import { canonicalJson } from '../../shared/json/canonical-json.js';
import type { ViewToolCall } from '../session-view.js';
import { ToolIdentityAllocator } from '../tool-identity.js';
import { asObject, asString, type BlockCall, type JsonObject } from './store-blocks.js';

export interface ToolResult {
  text: string | null;
  isError: boolean;
}

function resultText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((part) => typeof asObject(part)?.text === 'string'))
    return value.map((part) => asObject(part)!.text as string).join('');
  return canonicalJson(value);
}

/** A tool-result block or OpenAI tool message → its call ID and result. */
export function readToolResult(
  block: JsonObject,
  fallbackId: string | null,
): { callId: string | null; result: ToolResult } {
  const callId = asString(block.toolCallId) ?? asString(block.tool_call_id) ?? fallbackId;
  const error = block.error ?? null;
  return {
    callId,
    result: {
      text: resultText(block.result ?? block.output ?? block.content ?? error),
      isError: block.isError === true || error !== null,
    },
  };
}

function filesOf(params: unknown): string[] {
  const p = asObject(params);
  if (!p) return [];
  const files = [p.path, p.file, p.filePath, p.target_file, p.targetFile].filter(
    (f): f is string => typeof f === 'string' && f.length > 0,
  );
  return [...new Set(files)];
}

export function buildToolCalls(
  calls: readonly BlockCall[],
  messageId: string,
  results: ReadonlyMap<string, ToolResult>,
  used: Set<string>,
): ViewToolCall[] {
  const allocator = new ToolIdentityAllocator(messageId);
  return calls.map((call) => {
    const joined = call.nativeId === null ? undefined : results.get(call.nativeId);
    if (joined && call.nativeId !== null) used.add(call.nativeId);
    const status = joined?.isError ? 'error' : 'completed';
    return {
      toolId: allocator.next({
        name: call.name,
        ...(call.params === undefined ? {} : { params: call.params }),
      }),
      toolIdOrigin: 'tool-v1',
      nativeCallId: call.nativeId,
      name: call.name,
      status,
      params: call.params ?? null,
      result: joined && !joined.isError ? joined.text : null,
      error: joined?.isError ? joined.text : null,
      files: filesOf(call.params),
      userDecision: null,
      extensions: null,
    };
  });
}
