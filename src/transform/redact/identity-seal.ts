/**
 * Sealed identity for redacted warehouses. Identity v1 hashes content with plain SHA-256
 * (`capture:v1:<sha256>`, `store:v1:transcript:<sha256>`, `store:v1:db:<blob sha256>`,
 * `tool:v1:…:<sha256>:n`, `markdown:v1:<sha256>`), so a stored ID would confirm a guessed secret.
 * A redacted warehouse stores `…:v1k:…` instead: each such hash replaced by HMAC-SHA256 under a key
 * kept outside the warehouse (docs/redaction.md). Sealing maps one v1 ID to one sealed ID, the
 * same from the sources and from an archived row, so occurrences, collisions and references keep
 * their meaning; a sealed ID is left as it is.
 */
import { createHmac } from 'node:crypto';

const HEX64 = '[0-9a-f]{64}';
const SIMPLE = new RegExp(`^(capture|markdown|store):v1:((?:db:|transcript:)?)(${HEX64})(.*)$`);
const TOOL = new RegExp(`^tool:v1:(.*):(${HEX64}):(\\d+)$`);

export class IdentitySeal {
  private readonly key: Buffer;

  constructor(keyHex: string) {
    this.key = Buffer.from(keyHex, 'hex');
  }

  private hmac(label: string, value: string): string {
    return createHmac('sha256', this.key).update(`${label}\0${value}`).digest('hex');
  }

  /** Stored with the warehouse: tells whether a later run holds the same key, reveals nothing of it. */
  keyCheck(): string {
    return this.hmac('cursor-etl key check', 'v1');
  }

  /** The sealed form of a message, tool or session ID; other IDs (native ones) unchanged. */
  sealId(id: string): string {
    const simple = SIMPLE.exec(id);
    if (simple !== null) {
      const [, family, representation, hash, rest] = simple;
      return `${family}:v1k:${representation}${this.hmac('id', hash!)}${rest}`;
    }
    const tool = TOOL.exec(id);
    if (tool !== null) {
      const [, messageId, hash, occurrence] = tool;
      return `tool:v1k:${this.sealId(messageId!)}:${this.hmac('id', hash!)}:${occurrence}`;
    }
    return id;
  }

  /** An opaque reference derived from a sealed ID (an occurrence reference) sealed alike. */
  sealRef(ref: string): string {
    return this.hmac('ref', ref);
  }
}

/** Whether an ID's identity hashes content (and so is sealed in a redacted warehouse). */
export function isContentHashedId(id: string): boolean {
  return SIMPLE.test(id) || TOOL.test(id);
}
