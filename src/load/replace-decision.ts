/**
 * Whole-session replace safety: digests decide change; partial never overwrites complete; an
 * ambiguity never replaces archived rows; a capture never replaces a complete session Cursor's data
 * backs (as in a run reading both); a backup never replaces a live complete view unless asked.
 */
export type LoadAction =
  | 'insert'
  | 'unchanged'
  | 'replace'
  | 'keep-complete'
  | 'keep-cursor-data'
  | 'keep-ambiguous';

export interface ArchivedState {
  viewDigest: string;
  fidelity: 'complete' | 'partial';
  /** True when a contributor of the archived view was read from a non-backup carrier. */
  liveContributed?: boolean;
  /** True when Composer or Store data (not a capture) supplied the archived view. */
  cursorBacked?: boolean;
  /** The archived instances' `provenanceKey`, when the target can update provenance in place. */
  provenance?: string;
  /** The archived `file_edits` rows' signature (file-edits-signature.ts), when the target can rewrite them in place. */
  fileEdits?: string;
  /** The origin that wrote the archived view (null: archived before origins). */
  origin?: string | null;
  /** The archived `updated_at` (epoch ms), read when origins differ. */
  updatedAtMs?: number | null;
  /** The archived message IDs in order, read only when two origins' complete views differ. */
  messageIds?: readonly string[];
}

export interface IncomingState {
  viewDigest: string;
  fidelity: 'complete' | 'partial';
  resolutionState: 'complete' | 'partial' | 'ambiguous';
  /** True when every contributor of the incoming view was read from a backup archive. */
  backupOnly?: boolean;
  /** True when every contributor of the incoming view is a capture. */
  captureBacked?: boolean;
}

export interface LoadPolicy {
  /** `--backup-may-replace`: a backup view may replace a complete view loaded from a live source. */
  backupMayReplace: boolean;
}

export const DEFAULT_LOAD_POLICY: LoadPolicy = { backupMayReplace: false };

/** Two origins' views of one session, each stamped with its origin; null is an older, unstamped row. */
export function differentOrigins(archived: string | null | undefined, incoming: string | null): boolean {
  return archived !== null && archived !== undefined && incoming !== null && archived !== incoming;
}

export interface OriginView {
  updatedAtMs: number | null;
  messageIds: readonly string[];
}

function extendsView(longer: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= longer.length && prefix.every((id, i) => longer[i] === id);
}

/**
 * Two different complete views of one session from two origins: the one whose source data is
 * strictly newer wins, and only when it extends the other (same message IDs as a prefix). Anything
 * else is divergence: the archived rows stay, never a silent pick or a union.
 */
export function decideAcrossOrigins(
  archived: OriginView,
  incoming: OriginView,
): 'replace' | 'keep-newer' | 'diverged' {
  const a = archived.updatedAtMs;
  const b = incoming.updatedAtMs;
  if (a !== null && b !== null) {
    if (b > a && extendsView(incoming.messageIds, archived.messageIds)) return 'replace';
    if (a > b && extendsView(archived.messageIds, incoming.messageIds)) return 'keep-newer';
  }
  return 'diverged';
}

export function decideLoad(
  archived: ArchivedState | undefined,
  incoming: IncomingState,
  policy: LoadPolicy = DEFAULT_LOAD_POLICY,
): LoadAction {
  if (archived === undefined) return 'insert';
  if (archived.viewDigest === incoming.viewDigest) return 'unchanged';
  if (incoming.resolutionState === 'ambiguous') return 'keep-ambiguous';
  if (incoming.fidelity === 'partial' && archived.fidelity === 'complete') return 'keep-complete';
  if (incoming.captureBacked === true && archived.fidelity === 'complete' && archived.cursorBacked === true)
    return 'keep-cursor-data';
  if (
    incoming.backupOnly === true &&
    archived.fidelity === 'complete' &&
    archived.liveContributed === true &&
    !policy.backupMayReplace
  )
    return 'keep-complete';
  return 'replace';
}
