/**
 * One JSON agentKv blob in the "AI SDK" message shape (cursor-formats §1.3): role, text, reasoning,
 * tool calls and results with `highLevelToolCallResult`, request ID and model names. Content may
 * be a string or parts; older string-content messages carry tool fields at the top level.
 */
import { asObject, asString, type JsonObject, nonEmptyString } from '../composer/composer-fields.js';

export interface AgentKvToolCall {
  toolCallId: string | null;
  toolName: string | null;
  args: unknown;
}

export interface AgentKvToolResult {
  toolCallId: string | null;
  toolName: string | null;
  result: unknown;
  isError: boolean | null;
  rawErrorMessages: unknown[] | null;
  /** `highLevelToolCallResult.output` (e.g. Shell `{command, executionTime}`, a Task's conversation). */
  output: unknown;
}

export interface AiSdkMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  text: string;
  reasoning: string[];
  toolCalls: AgentKvToolCall[];
  toolResults: AgentKvToolResult[];
  requestId: string | null;
  modelNames: string[];
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

function cursorOptions(value: JsonObject | null): JsonObject | null {
  return asObject(asObject(value?.providerOptions)?.cursor);
}

function idOf(value: JsonObject, camel: string, snake: string): string | null {
  return nonEmptyString(value[camel]) ?? nonEmptyString(value[snake]);
}

function toolResult(part: JsonObject, high: JsonObject | null): AgentKvToolResult {
  return {
    toolCallId: idOf(part, 'toolCallId', 'tool_call_id'),
    toolName: idOf(part, 'toolName', 'tool_name'),
    result: part.result ?? part.content ?? null,
    isError: typeof high?.isError === 'boolean' ? high.isError : null,
    rawErrorMessages: Array.isArray(high?.rawErrorMessages) ? high.rawErrorMessages : null,
    output: high?.output ?? null,
  };
}

/** The message, or null when the JSON is not a message of a known role. */
export function parseAiSdkMessage(json: unknown): AiSdkMessage | null {
  const value = asObject(json);
  const role = asString(value?.role);
  if (value === null || role === null || !ROLES.has(role)) return null;
  const cursor = cursorOptions(value);
  const high = asObject(cursor?.highLevelToolCallResult);
  const message: AiSdkMessage = {
    role: role as AiSdkMessage['role'],
    text: '',
    reasoning: [],
    toolCalls: [],
    toolResults: [],
    requestId: nonEmptyString(cursor?.requestId),
    modelNames: [],
  };
  const model = nonEmptyString(cursor?.modelName);
  if (model !== null) message.modelNames.push(model);
  const texts: string[] = [];
  if (typeof value.content === 'string') {
    texts.push(value.content);
    if (role === 'tool' || idOf(value, 'toolCallId', 'tool_call_id') !== null) {
      if (role === 'tool') message.toolResults.push(toolResult({ ...value, result: value.content }, high));
      else
        message.toolCalls.push({
          toolCallId: idOf(value, 'toolCallId', 'tool_call_id'),
          toolName: idOf(value, 'toolName', 'tool_name'),
          args: value.args ?? null,
        });
    }
  } else if (Array.isArray(value.content)) {
    for (const item of value.content) {
      const part = asObject(item);
      if (part === null) continue;
      const partModel = nonEmptyString(cursorOptions(part)?.modelName);
      if (partModel !== null && !message.modelNames.includes(partModel)) message.modelNames.push(partModel);
      if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
      else if (part.type === 'reasoning' && typeof part.text === 'string') message.reasoning.push(part.text);
      else if (part.type === 'tool-call')
        message.toolCalls.push({
          toolCallId: idOf(part, 'toolCallId', 'tool_call_id'),
          toolName: idOf(part, 'toolName', 'tool_name'),
          args: part.args ?? part.input ?? null,
        });
      else if (part.type === 'tool-result') message.toolResults.push(toolResult(part, high));
    }
  }
  message.text = texts.join('\n\n');
  return message;
}
