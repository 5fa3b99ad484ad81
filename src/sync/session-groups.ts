/**
 * Groups catalogued occurrences by byte-exact session ID (case variants stay separate) in a
 * deterministic code-point order, so identity and load order never depend on discovery order.
 */
import type { SessionOccurrence, SourceAdapter } from '../extract/source-adapter.js';

export interface SessionGroup {
  sessionId: string;
  members: { adapter: SourceAdapter; occurrence: SessionOccurrence }[];
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function groupOccurrences(
  entries: readonly { adapter: SourceAdapter; occurrence: SessionOccurrence }[],
): SessionGroup[] {
  const groups = new Map<string, SessionGroup>();
  for (const entry of entries) {
    const id = entry.occurrence.sessionId;
    let group = groups.get(id);
    if (!group) {
      group = { sessionId: id, members: [] };
      groups.set(id, group);
    }
    group.members.push(entry);
  }
  for (const group of groups.values()) {
    // A sorted copy is sized to its members; the array grown by push kept 17 slots for one or two.
    group.members = group.members.toSorted((a, b) =>
      byCodePoint(a.occurrence.occurrenceRef, b.occurrence.occurrenceRef),
    );
  }
  // A conversation only AI code tracking names is not a session (its Composer data is gone).
  const sessions = [...groups.values()].filter((group) =>
    group.members.some((m) => m.occurrence.enrichmentOnly !== true),
  );
  // JS string comparison is UTF-16 order, which is code-point order unless an ID has a surrogate;
  // then every ID gets a code-point key, built once per session rather than per comparison.
  if (!sessions.some((group) => SURROGATE.test(group.sessionId)))
    return sessions.sort((a, b) => byCodePoint(a.sessionId, b.sessionId));
  return sessions
    .map((group) => ({ group, key: codePointKey(group.sessionId) }))
    .sort((a, b) => byCodePoint(a.key, b.key))
    .map(({ group }) => group);
}

const SURROGATE = /[\uD800-\uDFFF]/;

function codePointKey(id: string): string {
  return Array.from(id, (ch) => ch.codePointAt(0)!.toString(16).padStart(6, '0')).join('');
}
