/**
 * Reads a legacy Cloud Agents v0 conversation (`{id, messages:[{id, type, text}]}`, bare or as
 * `{agent, conversation}`) as one JSON record, so `jsonlRecordBytes` bounds the document. One that
 * does not parse, or names two agents, refuses the file (fail closed).
 */
import { checkLimit } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { parseStrictJson } from '../text/strict-json.js';
import { SourceEncodingInvalid } from '../text/strict-utf8.js';
import type { CloudV0Conversation, JsonObject } from './capture-contribution.js';
import {
  CaptureDocumentMalformed,
  CaptureSessionIdChanged,
  CaptureSessionIdMissing,
} from './capture-rejection.js';
import { obj, str } from './json-values.js';
import { readPhysicalLines } from './line-source.js';

const SURFACE = 'cloud-v0';

function without(object: JsonObject, keys: readonly string[]): JsonObject | null {
  const entries = Object.entries(object).filter(([key]) => !keys.includes(key));
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}

function readDocument(path: string, limits: ReadLimits, counters: ReadCounters): unknown {
  const parts: string[] = [];
  let bytes = 0;
  for (const line of readPhysicalLines(path, limits, counters)) {
    bytes += Buffer.byteLength(line.text) + (parts.length > 0 ? 1 : 0);
    checkLimit('jsonlRecordBytes', limits.jsonlRecordBytes, bytes);
    parts.push(line.text);
  }
  try {
    return parseStrictJson(parts.join('\n'), 'capture');
  } catch (error) {
    if (error instanceof SourceEncodingInvalid) throw error;
    throw new CaptureDocumentMalformed(SURFACE);
  }
}

export function readCloudV0Conversation(
  path: string,
  limits: ReadLimits,
  counters: ReadCounters,
): CloudV0Conversation {
  const root = obj(readDocument(path, limits, counters));
  if (root === null) throw new CaptureDocumentMalformed(SURFACE);
  const wrapped = obj(root.conversation);
  const conversation = wrapped ?? root;
  if (!Array.isArray(conversation.messages)) throw new CaptureDocumentMalformed(SURFACE);
  const agent = wrapped === null ? null : obj(root.agent);
  const conversationId = str(conversation.id);
  const agentId = str(agent?.id);
  if (conversationId !== null && agentId !== null && conversationId !== agentId)
    throw new CaptureSessionIdChanged(SURFACE, { field: 'agent.id' });
  const sessionId = conversationId ?? agentId;
  if (sessionId === null) throw new CaptureSessionIdMissing(SURFACE);
  const extraFields =
    wrapped === null ? without(root, ['id', 'messages']) : without(root, ['agent', 'conversation']);
  const nestedExtra = wrapped === null ? null : without(wrapped, ['id', 'messages']);
  return {
    sessionId,
    form: wrapped === null ? 'bare' : 'wrapped',
    agent,
    messages: conversation.messages,
    extraFields: nestedExtra === null ? extraFields : { ...(extraFields ?? {}), conversation: nestedExtra },
  };
}
