/**
 * One Composer bubble → one view message: identity v1, role from `type`, full text, thinking,
 * model, tokens, direct time, and its tool call (Composer stores at most one per bubble).
 */
import type { RawBubble } from '../../extract/composer/composer-contribution.js';
import { durationMsOrNull, readTimeField, type TimeProblem } from '../../shared/time/read-instant.js';
import type { DirectTime, RowSource, ViewMessage, ViewToolCall } from '../session-view.js';
import { ToolIdentityAllocator } from '../tool-identity.js';
import {
  asObject,
  asString,
  type JsonObject,
  nonEmptyString,
  parseJsonField,
  positiveInt,
} from './composer-fields.js';

export const CORRUPTED_PLACEHOLDER = '[corrupted message]';
const TIMING_FIELDS = ['clientRpcSendTime', 'clientSettleTime', 'clientEndTime'] as const;

/** Message identity v1 for a Composer projection position. */
export function composerMessageId(
  bubble: RawBubble,
  index: number,
): Pick<ViewMessage, 'messageId' | 'identityOrigin'> {
  const field = bubble.value === null ? undefined : bubble.value.bubbleId;
  const native = field === undefined ? nonEmptyString(bubble.keyBubbleId) : nonEmptyString(field);
  return native === null
    ? { messageId: `msg:${index}`, identityOrigin: 'composer-v0.16-index' }
    : { messageId: native, identityOrigin: 'composer-native' };
}

function directTime(value: JsonObject): DirectTime {
  const problems: TimeProblem[] = [];
  const found = (time: DirectTime): DirectTime => (problems.length === 0 ? time : { ...time, problems });
  const created = readTimeField(value.createdAt, 'bubble.createdAt', problems);
  if (created !== null) return found({ kind: 'direct', ms: created, source: 'composer-created-at' });
  const timing = asObject(value.timingInfo);
  if (timing) {
    for (const field of TIMING_FIELDS) {
      const ms = readTimeField(timing[field], `bubble.timingInfo.${field}`, problems);
      if (ms !== null) return found({ kind: 'direct', ms, source: 'composer-timing' });
    }
  }
  return found({ kind: 'missing', inferable: true });
}

function messageText(value: JsonObject, role: 'user' | 'assistant'): string {
  const candidates =
    role === 'user' ? ['text', 'content', 'finalText', 'message', 'markdown', 'textDescription'] : ['text'];
  for (const field of candidates) {
    const text = nonEmptyString(value[field]);
    if (text !== null) return text;
  }
  return '';
}

function thinkingText(value: JsonObject): string | null {
  const thinking = asObject(value.thinking);
  const direct = thinking ? nonEmptyString(thinking.text) : null;
  if (direct !== null) return direct;
  if (Array.isArray(value.allThinkingBlocks)) {
    const parts = value.allThinkingBlocks
      .map((block) => nonEmptyString(asObject(block)?.thinking ?? asObject(block)?.text))
      .filter((t): t is string => t !== null);
    if (parts.length > 0) return parts.join('\n\n');
  }
  return null;
}

function toolStatus(tool: JsonObject): string {
  const additional = asObject(tool.additionalData);
  const statuses = [asString(tool.status), asString(additional?.status)];
  if (statuses.includes('error')) return 'error';
  if (statuses.includes('cancelled')) return 'cancelled';
  return statuses[0] ?? statuses[1] ?? 'completed';
}

function toolFiles(params: unknown): string[] {
  const p = asObject(params);
  if (!p) return [];
  const files = [
    p.targetFile ?? p.file ?? p.filePath ?? p.relativeWorkspacePath,
    p.path,
    p.targetDirectory ?? p.directory,
  ]
    .map(nonEmptyString)
    .filter((f): f is string => f !== null);
  return [...new Set(files)];
}

function toolError(status: string, result: unknown): string | null {
  if (status !== 'error') return null;
  const parsed = asObject(parseJsonField(result));
  if (parsed) {
    for (const field of ['error', 'message', 'stderr', 'output', 'resultForModel']) {
      const text = nonEmptyString(parsed[field]);
      // A field of the re-parsed result may spell an unpaired surrogate; the raw result below holds it as text.
      if (text?.isWellFormed()) return text;
    }
  }
  return typeof result === 'string' && result.length > 0 ? result : null;
}

function toolCall(value: JsonObject, messageId: string): ViewToolCall[] {
  const tool = asObject(value.toolFormerData);
  if (!tool) return [];
  const name = nonEmptyString(tool.name);
  if (name === null) return [];
  const params = tool.params !== undefined ? parseJsonField(tool.params) : parseJsonField(tool.rawArgs);
  const status = toolStatus(tool);
  const result = asString(tool.result);
  const additional = asObject(tool.additionalData);
  return [
    {
      toolId: new ToolIdentityAllocator(messageId).next({ name, params }),
      toolIdOrigin: 'tool-v1',
      nativeCallId: nonEmptyString(tool.toolCallId),
      name,
      status,
      params: params ?? null,
      result,
      error: toolError(status, tool.result),
      files: toolFiles(params),
      userDecision: asString(tool.userDecision) ?? asString(additional?.userDecision),
      extensions: null,
    },
  ];
}

export function bubbleToMessage(
  bubble: RawBubble,
  index: number,
  sources: RowSource[],
): Omit<ViewMessage, 'parentMessageId' | 'onActiveBranch'> {
  const identity = composerMessageId(bubble, index);
  const value = bubble.value;
  if (value === null) {
    return {
      messageId: identity.messageId,
      identityOrigin: identity.identityOrigin,
      role: 'assistant',
      content: CORRUPTED_PLACEHOLDER,
      thinking: null,
      model: null,
      time: { kind: 'missing', inferable: true },
      isSidechain: false,
      isCorrupted: true,
      inputTokens: null,
      outputTokens: null,
      durationMs: null,
      origin: 'composer',
      toolCalls: [],
      extensions: { corruption: bubble.corruption },
      sources,
    };
  }
  const role = value.type === 2 ? 'assistant' : 'user';
  const tokens = asObject(value.tokenCount);
  const timing = asObject(value.timingInfo);
  const start = typeof timing?.clientStartTime === 'number' ? timing.clientStartTime : null;
  const end = typeof timing?.clientEndTime === 'number' ? timing.clientEndTime : null;
  const duration =
    start !== null && end !== null && end - start > 0 ? durationMsOrNull(Math.trunc(end - start)) : null;
  // Named fields, not `...identity`: a spread followed by more members costs ~4 KB of garbage per object.
  return {
    messageId: identity.messageId,
    identityOrigin: identity.identityOrigin,
    role,
    content: messageText(value, role),
    thinking: thinkingText(value),
    model: nonEmptyString(asObject(value.modelInfo)?.modelName),
    time: directTime(value),
    isSidechain: false,
    isCorrupted: false,
    inputTokens: positiveInt(tokens?.inputTokens),
    outputTokens: positiveInt(tokens?.outputTokens),
    durationMs: duration,
    origin: 'composer',
    toolCalls: toolCall(value, identity.messageId),
    extensions: null,
    sources,
  };
}
