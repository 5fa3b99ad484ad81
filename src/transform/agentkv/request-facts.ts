/**
 * Groups agentKv messages into requests (a user message opens one; the assistant and tool messages
 * after it in the root's order belong to it) and gathers what each adds: model names, reasoning,
 * and tool calls paired with their results by `toolCallId`.
 */
import type { AiSdkMessage } from './ai-sdk-message.js';
import { withoutEncryptionKeys } from './encryption-keys.js';
import type { LinkedMessage } from './session-blobs.js';

export interface RequestToolCall {
  toolCallId: string | null;
  toolName: string | null;
  args: unknown;
  result: unknown;
  isError: boolean | null;
  rawErrorMessages: unknown[] | null;
  output: unknown;
}

export interface RequestFacts {
  requestId: string | null;
  models: string[];
  reasoning: string[];
  toolCalls: RequestToolCall[];
}

export interface RequestGroup {
  requestId: string | null;
  messages: LinkedMessage[];
}

export function groupRequests(prompt: readonly LinkedMessage[]): RequestGroup[] {
  const groups: RequestGroup[] = [];
  for (const linked of prompt) {
    const { role, requestId } = linked.message;
    if (role === 'system') continue;
    if (role === 'user' || groups.length === 0)
      groups.push({ requestId: role === 'user' ? requestId : null, messages: [] });
    groups[groups.length - 1]!.messages.push(linked);
  }
  return groups;
}

/** The tool calls of `messages`, each with its result when one names its ID. */
export function pairedToolCalls(messages: readonly AiSdkMessage[]): RequestToolCall[] {
  const calls: RequestToolCall[] = [];
  const byId = new Map<string, RequestToolCall>();
  for (const message of messages) {
    for (const call of message.toolCalls) {
      const paired: RequestToolCall = {
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        args: withoutEncryptionKeys(call.args),
        result: null,
        isError: null,
        rawErrorMessages: null,
        output: null,
      };
      calls.push(paired);
      if (call.toolCallId !== null) byId.set(call.toolCallId, paired);
    }
    for (const result of message.toolResults) {
      const call = result.toolCallId === null ? undefined : byId.get(result.toolCallId);
      const target =
        call ??
        calls[
          calls.push({
            toolCallId: result.toolCallId,
            toolName: result.toolName,
            args: null,
            result: null,
            isError: null,
            rawErrorMessages: null,
            output: null,
          }) - 1
        ]!;
      target.result = withoutEncryptionKeys(result.result);
      target.isError = result.isError;
      target.rawErrorMessages = withoutEncryptionKeys(result.rawErrorMessages) as unknown[] | null;
      target.output = withoutEncryptionKeys(result.output);
    }
  }
  return calls;
}

export function requestFacts(group: RequestGroup): RequestFacts {
  const messages = group.messages.map((m) => m.message);
  return {
    requestId: group.requestId,
    models: [...new Set(messages.flatMap((m) => m.modelNames))],
    reasoning: messages.flatMap((m) => m.reasoning),
    toolCalls: pairedToolCalls(messages),
  };
}
