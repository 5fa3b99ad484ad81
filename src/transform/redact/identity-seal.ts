/**
 * Sealed identity: v1 IDs hash content with plain SHA-256, so a stored ID would confirm a guessed
 * secret; a redacted warehouse stores `…:v1k:…`, each hash an HMAC-SHA256 under a key kept outside
 * it. One v1 ID maps to one sealed ID, from sources and archived rows alike.
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

  /**
   * A record locator with every content hash in it sealed (a Store blob ID hashes its content), and
   * a sealed session ID in place of the plain one.
   */
  sealLocator(locator: string, sessionId: string, sealedSessionId: string): string {
    const renamed = sessionId === sealedSessionId ? locator : locator.split(sessionId).join(sealedSessionId);
    return renamed.replace(new RegExp(HEX64, 'g'), (hash) => this.hmac('id', hash));
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
