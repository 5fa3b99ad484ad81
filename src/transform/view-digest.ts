/**
 * The replacement-safe view digest: SHA-256 of canonical JSON over every content row of the session
 * (the session row without the digest itself, messages, tool calls, source instances), so a digest
 * recomputed from warehouse rows (`etl verify`) must equal the stored one.
 *
 * Where the data was read from is provenance, not content: an instance's occurrence reference (a
 * hash of its physical location), its carrier and its position (ordered by that reference) stay out,
 * so the same data under another path keeps its digest.
 */
import type { MessageRow, SessionRow, SourceInstanceRow, ToolCallRow } from '../../schemas/tables.js';
import { canonicalHash, canonicalJson } from '../shared/json/canonical-json.js';

export const VIEW_DIGEST_VERSION = 2;

export interface DigestInput {
  session: Omit<SessionRow, 'view_digest'> & { view_digest?: string };
  messages: readonly MessageRow[];
  toolCalls: readonly ToolCallRow[];
  sourceInstances: readonly SourceInstanceRow[];
}

/** The content of the source instances: what each contributor was and did, in a location-free order. */
function instanceContent(rows: readonly SourceInstanceRow[]): string[] {
  return rows
    .map(({ occurrence_ref: _ref, carrier: _carrier, instance_ordinal: _ordinal, ...content }) =>
      canonicalJson(content),
    )
    .sort();
}

export function computeViewDigest(input: DigestInput): string {
  const { view_digest: _ignored, ...session } = input.session;
  return canonicalHash({
    v: VIEW_DIGEST_VERSION,
    session,
    messages: input.messages,
    toolCalls: input.toolCalls,
    sourceInstances: instanceContent(input.sourceInstances),
  });
}
