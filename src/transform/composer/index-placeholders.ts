/**
 * Placeholder messages for a `head` index entry whose global bubbles are missing (the reference
 * reader's workspace fallback): the session name as a user message, then every workspace
 * `aiService.generations` entry inside `[createdAt, lastUpdatedAt + 60 s]`, else `(Empty session)`.
 */

import { instantOrNull, readTimeField, type TimeProblem } from '../../shared/time/read-instant.js';
import type { ViewMessage } from '../session-view.js';
import { type JsonObject, nonEmptyString } from './composer-fields.js';
import { type BaseMessage, plainMessage } from './plain-message.js';

const WINDOW_TAIL_MS = 60_000;
export const EMPTY_SESSION_PLACEHOLDER = '(Empty session)';

function placeholder(
  index: number,
  content: string,
  native: string | null,
  time: ViewMessage['time'],
): BaseMessage {
  return plainMessage({ role: 'user', content, time, extensions: { placeholder: true } }, index, native);
}

/** A rejected generation `unixMs` is recorded in `problems`: that generation cannot be placed. */
export function indexPlaceholders(
  entry: JsonObject,
  generations: readonly JsonObject[],
  problems: TimeProblem[],
): BaseMessage[] {
  const messages: BaseMessage[] = [];
  const name = nonEmptyString(entry.name);
  if (name !== null) messages.push(placeholder(0, name, null, { kind: 'missing', inferable: true }));
  const start = instantOrNull(entry.createdAt);
  const last = instantOrNull(entry.lastUpdatedAt) ?? start;
  if (start !== null && last !== null) {
    for (const generation of generations) {
      const text = nonEmptyString(generation.textDescription);
      if (text === null) continue;
      const at = readTimeField(generation.unixMs, 'aiService.generations.unixMs', problems);
      if (at === null || at < start || at > last + WINDOW_TAIL_MS) continue;
      const time = { kind: 'direct', ms: at, source: 'composer-timing' } as const;
      messages.push(placeholder(messages.length, text, nonEmptyString(generation.generationUUID), time));
    }
  }
  if (messages.length === 0)
    messages.push(placeholder(0, EMPTY_SESSION_PLACEHOLDER, null, { kind: 'missing', inferable: true }));
  return messages;
}
