/** Applies `decideLoad` to a batch: one action per session, and the sessions that must be written. */

import type { NormalizedSession } from '../transform/normalized-session.js';
import { isBackupOnly, isCaptureBacked, provenanceKey } from './carrier-provenance.js';
import { fileEditsSignature } from './file-edits-signature.js';
import {
  type ArchivedState,
  DEFAULT_LOAD_POLICY,
  decideAcrossOrigins,
  decideLoad,
  differentOrigins,
  type LoadPolicy,
} from './replace-decision.js';
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

/** Whether two origins' complete views of the session differ: the archived message IDs are then needed. */
function acrossOrigins(s: NormalizedSession, archived: ArchivedState | undefined): boolean {
  return (
    archived !== undefined &&
    differentOrigins(archived.origin, s.session.origin) &&
    archived.viewDigest !== s.session.view_digest &&
    archived.fidelity === 'complete' &&
    s.session.fidelity === 'complete' &&
    s.session.resolution_state !== 'ambiguous'
  );
}

/** The sessions of a batch whose archived message IDs `planLoads` needs (`ArchivedState.messageIds`). */
export function sessionsNeedingMessageIds(
  sessions: readonly NormalizedSession[],
  archived: ReadonlyMap<string, ArchivedState>,
): string[] {
  return sessions
    .filter((s) => acrossOrigins(s, archived.get(s.session.session_id)))
    .map((s) => s.session.session_id);
}

function decide(
  s: NormalizedSession,
  archived: ArchivedState | undefined,
  policy: LoadPolicy,
): Pick<LoadResult, 'action' | 'originRule'> {
  const action = decideLoad(
    archived,
    {
      viewDigest: s.session.view_digest,
      fidelity: s.session.fidelity,
      resolutionState: s.session.resolution_state,
      backupOnly: isBackupOnly(s.sourceInstances),
      captureBacked: isCaptureBacked(s.sourceInstances),
    },
    policy,
  );
  if (action !== 'replace' || !acrossOrigins(s, archived)) return { action };
  const rule = decideAcrossOrigins(
    { updatedAtMs: archived!.updatedAtMs ?? null, messageIds: archived!.messageIds ?? [] },
    { updatedAtMs: s.session.updated_at, messageIds: s.messages.map((m) => m.message_id) },
  );
  if (rule === 'replace') return { action, originRule: rule };
  return { action: rule === 'keep-newer' ? 'keep-complete' : 'keep-ambiguous', originRule: rule };
}

export function planLoads(
  sessions: readonly NormalizedSession[],
  archived: ReadonlyMap<string, ArchivedState>,
  policy: LoadPolicy = DEFAULT_LOAD_POLICY,
): LoadPlan {
  const results: LoadResult[] = sessions.map((s) => {
    const { action, originRule } = decide(s, archived.get(s.session.session_id), policy);
    const ambiguous = s.session.resolution_state === 'ambiguous' ? { ambiguous: true as const } : {};
    const rule = originRule === undefined ? {} : { originRule };
    if (action !== 'keep-cursor-data')
      return { sessionId: s.session.session_id, action, ...ambiguous, ...rule };
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
  // Another origin's identical view writes nothing: the archived provenance stays its writer's.
  const relocated = sessions.filter((s, i) => {
    const stored = archived.get(s.session.session_id);
    const provenance = stored?.provenance;
    return (
      results[i]!.action === 'unchanged' &&
      provenance !== undefined &&
      !differentOrigins(stored?.origin, s.session.origin) &&
      provenance !== provenanceKey(s.sourceInstances, s.rowProvenance)
    );
  });
  const setAside = sessions.filter((_, i) => results[i]!.action === 'keep-cursor-data');
  const editsRefreshed = sessions.filter((s, i) => {
    const stored = archived.get(s.session.session_id)?.fileEdits;
    return (
      results[i]!.action === 'unchanged' && stored !== undefined && stored !== fileEditsSignature(s.fileEdits)
    );
  });
  return { results, writes, relocated, setAside, editsRefreshed };
}
