/** Links Composer messages along the active branch: each branch message's parent is the previous one. */
import { linkedMessage, type ViewMessage } from '../session-view.js';

export function linkActiveBranch(
  messages: readonly Omit<ViewMessage, 'parentMessageId' | 'onActiveBranch'>[],
  branch: ReadonlySet<string> | null,
): ViewMessage[] {
  let previousOnBranch: string | null = null;
  return messages.map((base) => {
    const onActiveBranch = branch === null ? true : branch.has(base.messageId);
    const message = linkedMessage(base, onActiveBranch, onActiveBranch ? previousOnBranch : null);
    if (onActiveBranch) previousOnBranch = message.messageId;
    return message;
  });
}
