/**
 * Timestamp provenance: direct source times are kept; a missing time takes the next direct time
 * (`inferred-next`), else the previous (`inferred-previous`), else the session time
 * (`session-fallback`), else the epoch (`unknown`). Inferred values never chain; wall clock and
 * file mtimes are never used.
 */
import type { MessageTimeSource, SessionTime, ViewMessage } from './session-view.js';

export interface ResolvedTime {
  ms: number;
  source: MessageTimeSource;
}

export function deriveSessionTimes(
  messages: readonly ViewMessage[],
  createdAt: SessionTime | null,
  updatedAt: SessionTime | null,
): { createdAt: SessionTime; updatedAt: SessionTime } {
  let min: number | null = null;
  let max: number | null = null;
  for (const message of messages) {
    if (message.time.kind !== 'direct') continue;
    min = min === null ? message.time.ms : Math.min(min, message.time.ms);
    max = max === null ? message.time.ms : Math.max(max, message.time.ms);
  }
  const fromMessages = (value: number | null): SessionTime =>
    value === null ? { ms: 0, source: 'epoch-unknown' } : { ms: value, source: 'direct-message' };
  return { createdAt: createdAt ?? fromMessages(min), updatedAt: updatedAt ?? fromMessages(max) };
}

export function resolveMessageTimes(
  messages: readonly ViewMessage[],
  sessionCreated: SessionTime,
): ResolvedTime[] {
  const next: (number | null)[] = new Array(messages.length).fill(null);
  let upcoming: number | null = null;
  for (let i = messages.length - 1; i >= 0; i--) {
    next[i] = upcoming;
    const time = messages[i]!.time;
    if (time.kind === 'direct') upcoming = time.ms;
  }
  const fallback: ResolvedTime =
    sessionCreated.source === 'epoch-unknown'
      ? { ms: 0, source: 'unknown' }
      : { ms: sessionCreated.ms, source: 'session-fallback' };
  let previous: number | null = null;
  return messages.map((message, i) => {
    const time = message.time;
    let resolved: ResolvedTime;
    if (time.kind === 'direct') resolved = { ms: time.ms, source: time.source };
    else if (time.kind === 'unproven') resolved = { ms: time.ms, source: 'unknown' };
    else if (time.inferable && next[i] !== null) resolved = { ms: next[i]!, source: 'inferred-next' };
    else if (time.inferable && previous !== null) resolved = { ms: previous, source: 'inferred-previous' };
    else resolved = fallback;
    if (time.kind === 'direct') previous = time.ms;
    return resolved;
  });
}
