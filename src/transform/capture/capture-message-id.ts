/**
 * Capture message identity v1 without native IDs (CLI streams, Markdown): `capture:v1:<sha256
 * canonical {surface, role, content}>:<occurrence>`, from content before redaction only, so a
 * later, longer capture keeps the IDs of the messages it shares with an earlier one.
 */
import { canonicalHash } from '../../shared/json/canonical-json.js';

export class CaptureMessageIds {
  private readonly seen = new Map<string, number>();
  constructor(private readonly surface: string) {}

  next(role: string, content: string): string {
    const hash = canonicalHash({ surface: this.surface, role, content });
    const occurrence = (this.seen.get(hash) ?? 0) + 1;
    this.seen.set(hash, occurrence);
    return `capture:v1:${hash}:${occurrence}`;
  }
}
