/** The view message every Store representation produces: no direct time, no tokens, Store origin. */
import type { ViewMessage } from '../session-view.js';

export function storeMessage(
  fields: Pick<
    ViewMessage,
    'messageId' | 'identityOrigin' | 'role' | 'content' | 'thinking' | 'toolCalls' | 'sources'
  > &
    Partial<Pick<ViewMessage, 'parentMessageId' | 'onActiveBranch' | 'isSidechain'>>,
): ViewMessage {
  // Named fields, not spreads of the defaults and `fields`: a spread copy costs ~4 KB of garbage.
  return {
    messageId: fields.messageId,
    identityOrigin: fields.identityOrigin,
    role: fields.role,
    content: fields.content,
    thinking: fields.thinking,
    model: null,
    // Store leaves and transcript lines carry no times: session-fallback (or unknown), never inferred.
    time: { kind: 'missing', inferable: false },
    parentMessageId: fields.parentMessageId ?? null,
    onActiveBranch: fields.onActiveBranch ?? true,
    isSidechain: fields.isSidechain ?? false,
    isCorrupted: false,
    inputTokens: null,
    outputTokens: null,
    durationMs: null,
    origin: 'store',
    toolCalls: fields.toolCalls,
    extensions: null,
    sources: fields.sources,
  };
}
