/**
 * The replacement-safe view digest: SHA-256 of canonical JSON over the session's content rows, so
 * `etl verify` can recompute it. Where data was read from (occurrence reference, carrier, position)
 * is provenance and stays out, so moved data keeps its digest; so does the origin that read it.
 */
import type {
  MessageRow,
  SessionRow,
  SourceInstanceRow,
  ToolCallRow,
  UsageRow,
} from '../../schemas/tables.js';
import { canonicalHash, canonicalJson } from '../shared/json/canonical-json.js';

export const VIEW_DIGEST_VERSION = 2;

/** A source instance row whose origin may not be stamped yet. */
type InstanceInput = Omit<SourceInstanceRow, 'origin'> & { origin?: string | null };

export interface DigestInput {
  session: Omit<SessionRow, 'view_digest' | 'origin'> & { view_digest?: string; origin?: string | null };
  messages: readonly MessageRow[];
  toolCalls: readonly ToolCallRow[];
  sourceInstances: readonly InstanceInput[];
  usage?: readonly UsageRow[];
}

/** The content of the source instances: what each contributor was and did, in a location-free order. */
function instanceContent(rows: readonly InstanceInput[]): string[] {
  return rows
    .map(
      ({
        occurrence_ref: _ref,
        carrier: _carrier,
        instance_ordinal: _ordinal,
        origin: _origin,
        ...content
      }) => canonicalJson(content),
    )
    .sort();
}

export function computeViewDigest(input: DigestInput): string {
  const { view_digest: _ignored, origin: _origin, ...session } = input.session;
  return canonicalHash({
    v: VIEW_DIGEST_VERSION,
    session,
    messages: input.messages,
    toolCalls: input.toolCalls,
    sourceInstances: instanceContent(input.sourceInstances),
    // Hashed only when present, so a session without usage keeps the digest it had before the table.
    ...(input.usage !== undefined && input.usage.length > 0 ? { usage: input.usage } : {}),
  });
}
