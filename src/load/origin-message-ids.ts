/** Reading archived message IDs for two origins' differing complete views (`decideAcrossOrigins`). */
import type { ArchivedState } from './replace-decision.js';

/** `SELECT session_id, ids` over a `messages` relation: the IDs as a JSON array in ordinal order. */
export function messageIdsSql(relation: string): string {
  return `SELECT session_id, to_json(list(message_id ORDER BY ordinal))::VARCHAR AS ids FROM ${relation}`;
}

/** Stores each row's IDs on its archived state; a value that is not a list of strings reads as none. */
export function applyMessageIds(
  rows: readonly Record<string, unknown>[],
  archived: Map<string, ArchivedState>,
): void {
  for (const row of rows) {
    const state = archived.get(String(row.session_id));
    if (state === undefined) continue;
    const parsed: unknown = JSON.parse(String(row.ids));
    state.messageIds =
      Array.isArray(parsed) && parsed.every((id) => typeof id === 'string') ? (parsed as string[]) : [];
  }
}
