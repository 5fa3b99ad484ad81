/** A Composer index message with only text: the defaults every non-bubble message shares. */
import { absentMessageFacts, type ViewMessage } from '../session-view.js';

export type BaseMessage = Omit<ViewMessage, 'parentMessageId' | 'onActiveBranch'>;

export function plainMessage(
  fields: Pick<BaseMessage, 'role' | 'content' | 'time'> & Partial<BaseMessage>,
  index: number,
  nativeId: string | null,
): BaseMessage {
  return {
    messageId: nativeId ?? `msg:${index}`,
    identityOrigin: nativeId === null ? 'composer-v0.16-index' : 'composer-native',
    ...absentMessageFacts(),
    origin: 'composer',
    ...fields,
  };
}
