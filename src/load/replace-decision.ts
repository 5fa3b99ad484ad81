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
  /** How many `file_edits` rows the archived session has, when the target can rewrite them in place. */
  fileEdits?: number;
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
