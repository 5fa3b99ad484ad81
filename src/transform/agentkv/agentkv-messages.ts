/**
 * A session whose text exists only in agentKv, rebuilt from its JSON messages (system messages
 * and injected context left out). Message identity: `agentkv:v1:<blobId>:<n>`, n the one-based
 * occurrence of that blob in the session (a content-addressed blob can repeat).
 */
import { absentMessageFacts, type RowSource, type ViewMessage, type ViewToolCall } from '../session-view.js';
import { ToolIdentityAllocator } from '../tool-identity.js';
import { pairedToolCalls, type RequestToolCall } from './request-facts.js';
import type { LinkedMessage } from './session-blobs.js';
import { visibleUserText } from './visible-user-text.js';

type BaseMessage = Omit<ViewMessage, 'parentMessageId' | 'onActiveBranch'>;

function viewToolCall(call: RequestToolCall, tools: ToolIdentityAllocator): ViewToolCall {
  const name = call.toolName ?? 'unknown';
  const failed = call.isError === true;
  const result =
    call.result === null ? null : typeof call.result === 'string' ? call.result : JSON.stringify(call.result);
  return {
    toolId: call.toolCallId ?? tools.next({ name, params: call.args }),
    toolIdOrigin: call.toolCallId === null ? 'tool-v1' : 'source-native',
    nativeCallId: call.toolCallId,
    name,
    status: call.result === null && call.output === null ? 'unknown' : failed ? 'error' : 'completed',
    params: call.args,
    result,
    error: failed ? (result ?? 'error') : null,
    files: [],
    userDecision: null,
    extensions: {
      agentKv: { isError: call.isError, rawErrorMessages: call.rawErrorMessages, output: call.output },
    },
  };
}

/** `source` names the record of a blob (`row_provenance`). */
export function agentKvMessages(
  linked: readonly LinkedMessage[],
  source: (blobId: string) => RowSource,
): BaseMessage[] {
  const occurrences = new Map<string, number>();
  const out: BaseMessage[] = [];
  let pending: { message: BaseMessage; linked: LinkedMessage[] } | null = null;
  const flush = () => {
    if (pending === null) return;
    const tools = new ToolIdentityAllocator(pending.message.messageId);
    pending.message.toolCalls = pairedToolCalls(pending.linked.map((l) => l.message)).map((c) =>
      viewToolCall(c, tools),
    );
    pending = null;
  };
  for (const item of linked) {
    const { message } = item;
    if (message.role === 'system') continue;
    if (message.role === 'tool' && pending !== null) {
      pending.linked.push(item);
      continue;
    }
    flush();
    const n = (occurrences.get(item.blobId) ?? 0) + 1;
    occurrences.set(item.blobId, n);
    const role = message.role === 'user' ? 'user' : 'assistant';
    const base: BaseMessage = {
      ...absentMessageFacts(),
      messageId: `agentkv:v1:${item.blobId}:${n}`,
      identityOrigin: 'agentkv-v1',
      role,
      content: role === 'user' ? visibleUserText(message.text) : message.text,
      thinking: message.reasoning.length > 0 ? message.reasoning.join('\n\n') : null,
      model: message.modelNames.at(-1) ?? null,
      time: { kind: 'missing', inferable: true },
      origin: 'agentkv',
      extensions: message.requestId === null ? null : { agentKv: { requestId: message.requestId } },
      sources: [source(item.blobId)],
    };
    out.push(base);
    if (role === 'assistant') pending = { message: base, linked: [item] };
  }
  flush();
  return out;
}
