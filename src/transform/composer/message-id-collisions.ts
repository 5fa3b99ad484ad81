/**
 * Two Composer bubbles claiming one message ID: the first in source order keeps it, and each later
 * claimant gets the smallest free `<id>:collision:<n>` (the contract's collision suffix), with its
 * tool identities derived from the new ID. Such a view is damage: the caller makes it partial.
 */
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import type { ViewMessage } from '../session-view.js';
import { claimId } from '../store/store-identity.js';
import { ToolIdentityAllocator } from '../tool-identity.js';

type Message = Pick<ViewMessage, 'messageId' | 'toolCalls'>;

/** Renames the later claimants in place; the diagnostic when there were any. */
export function separateCollidingIds(
  messages: readonly Message[],
  scope: { sessionId: string; sourceRef: string },
): Diagnostic | null {
  const taken = new Set(messages.map((message) => message.messageId));
  if (taken.size === messages.length) return null;
  const seen = new Set<string>();
  let renamed = 0;
  for (const message of messages) {
    if (!seen.has(message.messageId)) {
      seen.add(message.messageId);
      continue;
    }
    const id = claimId(message.messageId, taken);
    const tools = new ToolIdentityAllocator(id);
    message.messageId = id;
    message.toolCalls = message.toolCalls.map((call) =>
      call.toolIdOrigin === 'tool-v1'
        ? // A view's `null` params were absent (`undefined`) when the original ID was derived.
          { ...call, toolId: tools.next({ name: call.name, params: call.params ?? undefined }) }
        : call,
    );
    renamed++;
  }
  return diagnostic(
    'COMPOSER_MESSAGE_ID_COLLISION',
    'Several messages claim one message ID; the later ones get a collision suffix',
    { count: renamed },
    scope,
  );
}
