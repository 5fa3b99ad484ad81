/**
 * One legacy chat-panel bubble (2024 `tabs[].bubbles[]`, or `chatSessions[].messages[]`) → view
 * message. Its stored times cannot be proven to be creation times, so they are kept as `unknown`
 * and never used to infer neighbours.
 */
import { readTimeField, type TimeProblem } from '../../shared/time/read-instant.js';
import { type JsonObject, nonEmptyString } from './composer-fields.js';
import { type BaseMessage, plainMessage } from './plain-message.js';

const ASSISTANT_TYPES = new Set(['ai', 'assistant', 'bot', 'system']);

function legacyRole(value: JsonObject): 'user' | 'assistant' {
  const type = value.type ?? value.role;
  return type === 2 || (typeof type === 'string' && ASSISTANT_TYPES.has(type)) ? 'assistant' : 'user';
}

export function legacyChatMessage(value: JsonObject, index: number): BaseMessage {
  const problems: TimeProblem[] = [];
  const stored =
    readTimeField(value.timestamp, 'legacy-chat.timestamp', problems) ??
    readTimeField(value.createdAt, 'legacy-chat.createdAt', problems);
  const content =
    nonEmptyString(value.text) ??
    nonEmptyString(value.content) ??
    nonEmptyString(value.rawText) ??
    nonEmptyString(value.message) ??
    '';
  return plainMessage(
    {
      role: legacyRole(value),
      content,
      model: nonEmptyString(value.modelType) ?? nonEmptyString(value.model),
      time: {
        ...(stored === null ? { kind: 'missing', inferable: true } : { kind: 'unproven', ms: stored }),
        ...(problems.length === 0 ? {} : { problems }),
      },
    },
    index,
    nonEmptyString(value.id) ?? nonEmptyString(value.bubbleId),
  );
}
