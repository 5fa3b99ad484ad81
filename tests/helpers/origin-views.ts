/** Variants of a sample session as another origin would hold them: truncated, edited, re-timed. */
import type { NormalizedSession } from '../../src/transform/normalized-session.js';
import { withOrigin } from '../../src/transform/session-origin.js';
import { computeViewDigest } from '../../src/transform/view-digest.js';

export interface ViewChange {
  /** Keep only the first `keep` messages (and their tool calls and provenance). */
  keep?: number;
  updatedAt?: number;
  /** New content for the first message. */
  content?: string;
  /** A new ID for the first message (a view that is no prefix of the other). */
  firstId?: string;
}

export function originView(
  session: NormalizedSession,
  origin: string,
  change: ViewChange = {},
): NormalizedSession {
  const kept = session.messages.slice(0, change.keep ?? session.messages.length);
  const ids = new Set(kept.map((m) => m.message_id));
  const rename = (id: string): string =>
    change.firstId !== undefined && id === session.messages[0]!.message_id ? change.firstId : id;
  const messages = kept.map((m, i) => ({
    ...m,
    message_id: rename(m.message_id),
    content: i === 0 && change.content !== undefined ? change.content : m.content,
  }));
  const toolCalls = session.toolCalls
    .filter((t) => ids.has(t.message_id))
    .map((t) => ({ ...t, message_id: rename(t.message_id) }));
  const usage = session.usage
    .filter((u) => u.message_id === null || ids.has(u.message_id))
    .map((u) => ({ ...u, message_id: u.message_id === null ? null : rename(u.message_id) }));
  const fileEdits = session.fileEdits
    .filter((e) => ids.has(e.message_id))
    .map((e) => ({ ...e, message_id: rename(e.message_id) }));
  const row = {
    ...session.session,
    message_count: messages.length,
    tool_call_count: toolCalls.length,
    updated_at: change.updatedAt ?? session.session.updated_at,
  };
  const digest = computeViewDigest({
    session: row,
    messages,
    toolCalls,
    sourceInstances: session.sourceInstances,
    usage,
  });
  const rowProvenance = session.rowProvenance.filter((p) =>
    p.row_kind === 'message' ? ids.has(p.row_id) : toolCalls.some((t) => t.archive_key === p.row_id),
  );
  return withOrigin(
    {
      ...session,
      session: { ...row, view_digest: digest },
      messages,
      toolCalls,
      rowProvenance,
      usage,
      fileEdits,
    },
    origin,
  );
}
