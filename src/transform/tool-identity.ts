/**
 * Tool identity v1: a source-native tool ID is preserved; a call without one gets
 * `tool:v1:<messageId>:<sha256 canonical input>:<one-based occurrence among equal inputs>`.
 */
import { canonicalHash } from '../shared/json/canonical-json.js';

export class ToolIdentityAllocator {
  private readonly seen = new Map<string, number>();
  constructor(private readonly messageId: string) {}

  /** `input` is what the representation hashes (Composer: `{name, params}`). */
  next(input: Record<string, unknown>): string {
    const hash = canonicalHash(input);
    const occurrence = (this.seen.get(hash) ?? 0) + 1;
    this.seen.set(hash, occurrence);
    return `tool:v1:${this.messageId}:${hash}:${occurrence}`;
  }
}
