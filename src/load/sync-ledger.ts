/**
 * The durable sync ledger as the pipeline sees it: each source at its last committed read, and the
 * occurrences each archived session was built from. Writes ride with a load batch, so the ledger
 * never claims uncommitted data. Decisions over it: `src/sync/ledger/`.
 */
import type { SourceFingerprint, SourceKind } from '../shared/source-fingerprint.js';

export interface LedgerSource {
  sourceKey: string;
  kind: SourceKind;
  fingerprintDigest: string;
  optionsDigest: string;
  rootsDigest: string;
  present: boolean;
  checkpoint: unknown;
}

export interface Membership {
  sessionId: string;
  sourceKey: string;
  occurrenceRef: string;
  sessionFingerprint: string | null;
  contentFingerprint: string | null;
}

/** A source whose ledger row advances with the final batch of a run. */
export interface SourceAdvance {
  sourceKey: string;
  kind: SourceKind;
  fingerprint: SourceFingerprint;
  fingerprintDigest: string;
  changed: boolean;
  checkpoint: unknown;
}

/** Conclusions drawn once every session of the run is loaded; applied with the last batch. */
export interface LedgerFinal {
  rootsDigest: string;
  optionsDigest: string;
  /** Discovered sources, advanced to their current fingerprint. */
  sources: SourceAdvance[];
  /** Fully catalogued sources and the session IDs each one holds now (absence is concluded only here). */
  fullyRead: Map<string, Set<string>>;
  /** Whether undiscovered sources under the same roots may be concluded gone. */
  concludeVanished: boolean;
  /** Kinds whose data root did not exist this run: their undiscovered sources are not concluded gone. */
  unreadKinds: ReadonlySet<string>;
  /** Sources this run could not read (none fails the run): their rows and memberships stay as stored. */
  unreadSources: ReadonlySet<string>;
  /** Filled by the target when the final batch commits. */
  outcome: { markedAbsent: number };
}

export interface LedgerBatch {
  runId: string;
  /**
   * The current membership of every session in the batch, by session ID, as seen through the
   * sources this run discovered; rows for other sources (other roots) are left as they are.
   */
  memberships: Map<string, Membership[]>;
  discoveredSourceKeys: ReadonlySet<string>;
  final?: LedgerFinal;
}

export interface SyncLedgerStore {
  readSources(): Promise<Map<string, LedgerSource>>;
  readMemberships(sourceKey: string): Promise<Membership[]>;
  /** Every source key the given sessions were last built from. */
  sourcesOfSessions(sessionIds: readonly string[]): Promise<Map<string, string[]>>;
}

/** What a run could not see and so must not conclude gone: other roots, a missing root, an unread source. */
export interface VanishScope {
  rootsDigest: string;
  discovered: ReadonlySet<string>;
  unreadKinds: ReadonlySet<string>;
  /** Sources found but not read: unseen is not gone. */
  unreadSources: ReadonlySet<string>;
}

/** A source the ledger holds as present that this run, over the same roots, no longer discovered. */
export function hasVanished(
  sourceKey: string,
  stored: { present: boolean; rootsDigest: string; kind: string },
  scope: VanishScope,
): boolean {
  return (
    stored.present &&
    stored.rootsDigest === scope.rootsDigest &&
    !scope.discovered.has(sourceKey) &&
    !scope.unreadSources.has(sourceKey) &&
    !scope.unreadKinds.has(stored.kind)
  );
}
