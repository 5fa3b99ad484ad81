/**
 * Store message identity v1: `store:v1:db:<leaf hash>:<n>` and `store:v1:transcript:<sha256
 * canonical {role, content, toolActivity, sourceRelationships}>:<n>`, `n` counting equal
 * fingerprints in source order. A Store-only ID already taken gets the smallest free
 * `:collision:<n>`.
 */
import { canonicalHash } from '../../shared/json/canonical-json.js';

export class StoreIdentityAllocator {
  private readonly seen = new Map<string, number>();
  constructor(private readonly representation: 'db' | 'transcript') {}

  next(fingerprint: string): string {
    const occurrence = (this.seen.get(fingerprint) ?? 0) + 1;
    this.seen.set(fingerprint, occurrence);
    return `store:v1:${this.representation}:${fingerprint}:${occurrence}`;
  }
}

export interface TranscriptIdentityInput {
  role: 'user' | 'assistant';
  content: string;
  toolActivity: { name: string; params?: unknown }[];
  sourceRelationships: Record<string, unknown>;
}

export function transcriptFingerprint(input: TranscriptIdentityInput): string {
  return canonicalHash(input);
}

/** `candidate` itself when free, else `candidate:collision:<smallest free n>`; records the result. */
export function claimId(candidate: string, taken: Set<string>): string {
  let id = candidate;
  for (let n = 1; taken.has(id); n++) id = `${candidate}:collision:${n}`;
  taken.add(id);
  return id;
}
