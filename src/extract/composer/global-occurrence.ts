/**
 * A global Composer session's occurrence. Its fingerprint is a getter on the prototype, read when
 * the ledger asks: an object literal with its own getter was kept in dictionary mode with a
 * closure per session (~600 B each, 5 MB of a 10,000-session catalog held for the whole run).
 */
import type { Carrier, SessionOccurrence } from '../source-adapter.js';
import type { LazyFingerprint } from './session-fingerprint.js';

export interface GlobalHandle {
  kind: 'global';
  locator: string;
  composerId: string;
  /** Key prefixes of sessions nested in this one's key range. */
  excluded: readonly string[];
  fingerprint: LazyFingerprint;
}

export class GlobalOccurrence implements SessionOccurrence {
  readonly representation = 'composer-global';

  constructor(
    readonly sessionId: string,
    readonly sourceKey: string,
    readonly carrier: Carrier,
    readonly occurrenceRef: string,
    readonly workspacePath: string | null,
    readonly workspaceMemberships: readonly string[],
    readonly workspaceProblem: string | null,
    readonly handle: GlobalHandle,
  ) {}

  /** After a complete hydration this is free; before it, one stats query. */
  get sessionFingerprint(): string {
    return this.handle.fingerprint.get();
  }

  /** After a complete hydration this is free; before it, `compute` reads the session's values. */
  contentFingerprint(compute: boolean): string | null {
    return this.handle.fingerprint.content(compute);
  }
}
