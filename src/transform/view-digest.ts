/**
 * The replacement-safe view digest: SHA-256 of canonical JSON v1 over every content row of the
 * session (the session row without the digest itself, messages, tool calls, source instances), so a
 * digest recomputed from warehouse rows (`etl verify`) must equal the stored one.
 */
import type { MessageRow, SessionRow, SourceInstanceRow, ToolCallRow } from '../../schemas/tables.js';
import { canonicalHash } from '../shared/json/canonical-json.js';

export interface DigestInput {
  session: Omit<SessionRow, 'view_digest'> & { view_digest?: string };
  messages: readonly MessageRow[];
  toolCalls: readonly ToolCallRow[];
  sourceInstances: readonly SourceInstanceRow[];
}

export function computeViewDigest(input: DigestInput): string {
  const { view_digest: _ignored, ...session } = input.session;
  return canonicalHash({
    v: 1,
    session,
    messages: input.messages,
    toolCalls: input.toolCalls,
    sourceInstances: input.sourceInstances,
  });
}
