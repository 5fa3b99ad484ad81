/** Applies `decideLoad` to a batch: one action per session, and the sessions that must be written. */
import type { NormalizedSession } from '../transform/normalized-session.js';
import { isBackupOnly, isCaptureBacked, provenanceKey } from './carrier-provenance.js';
import { type ArchivedState, DEFAULT_LOAD_POLICY, decideLoad, type LoadPolicy } from './replace-decision.js';
import type { LoadResult } from './target.js';

export interface LoadPlan {
  results: LoadResult[];
  writes: NormalizedSession[];
  /** Unchanged sessions read from another place: only their provenance (instances, row provenance) is rewritten. */
  relocated: NormalizedSession[];
  /** Captures of sessions Cursor's data backs (`keep-cursor-data`): recorded as superseded instances. */
  setAside: NormalizedSession[];
  /**
   * Unchanged sessions whose archived `file_edits` rows differ in number from the incoming ones (an
   * archive of an older build): only those rows are rewritten.
   */
  editsRefreshed: NormalizedSession[];
}

export function planLoads(
  sessions: readonly NormalizedSession[],
  archived: ReadonlyMap<string, ArchivedState>,
  policy: LoadPolicy = DEFAULT_LOAD_POLICY,
): LoadPlan {
  const results: LoadResult[] = sessions.map((s) => {
    const action = decideLoad(
      archived.get(s.session.session_id),
      {
        viewDigest: s.session.view_digest,
        fidelity: s.session.fidelity,
        resolutionState: s.session.resolution_state,
        backupOnly: isBackupOnly(s.sourceInstances),
        captureBacked: isCaptureBacked(s.sourceInstances),
      },
      policy,
    );
    const ambiguous = s.session.resolution_state === 'ambiguous' ? { ambiguous: true as const } : {};
    if (action !== 'keep-cursor-data') return { sessionId: s.session.session_id, action, ...ambiguous };
    const representations = [...new Set(s.sourceInstances.map((i) => i.representation))].sort();
    return {
      sessionId: s.session.session_id,
      action,
      ...ambiguous,
      setAside: { representations, fidelity: s.session.fidelity },
    };
  });
  const writes = sessions.filter(
    (_, i) => results[i]!.action === 'insert' || results[i]!.action === 'replace',
  );
  const relocated = sessions.filter((s, i) => {
    const provenance = archived.get(s.session.session_id)?.provenance;
    return (
      results[i]!.action === 'unchanged' &&
      provenance !== undefined &&
      provenance !== provenanceKey(s.sourceInstances, s.rowProvenance)
    );
  });
  const setAside = sessions.filter((_, i) => results[i]!.action === 'keep-cursor-data');
  const editsRefreshed = sessions.filter((s, i) => {
    const stored = archived.get(s.session.session_id)?.fileEdits;
    return results[i]!.action === 'unchanged' && stored !== undefined && stored !== s.fileEdits.length;
  });
  return { results, writes, relocated, setAside, editsRefreshed };
}
