/** The view message every Store representation produces: no direct time, no tokens, Store origin. */
import { absentMessageFacts, type ViewMessage } from '../session-view.js';

export function storeMessage(
  fields: Pick<ViewMessage, 'messageId' | 'identityOrigin' | 'role' | 'content' | 'thinking' | 'toolCalls'> &
    Partial<Pick<ViewMessage, 'parentMessageId' | 'onActiveBranch' | 'isSidechain'>>,
): ViewMessage {
  return {
    ...absentMessageFacts(),
    // Store leaves and transcript lines carry no times: session-fallback (or unknown), never inferred.
    time: { kind: 'missing', inferable: false },
    origin: 'store',
    ...fields,
  };
}
