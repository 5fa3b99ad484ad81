/**
 * Representation choice for one Store session (cursor-formats §2.7 step 4): a usable store.db is
 * the backbone and transcripts `superseded`; else a transcript with messages is primary; else a
 * metadata-only degraded row. Same-role replicas reconcile or become one ambiguity.
 */
import type { StoreContribution } from '../../extract/store/store-contribution.js';
import { reconcileReplicas } from '../replicas/reconcile-replicas.js';
import { isReadFailure, SessionUnavailable } from '../session-unavailable.js';
import type { SessionView, ViewSourceInstance } from '../session-view.js';
import { WORKSPACE_UNKNOWN } from '../workspace/workspace-unknown.js';
import { type StoreRepresentationView, storeInstance, storeRepresentationView } from './store-view.js';

interface Rep extends StoreRepresentationView {
  contribution: StoreContribution;
}

function degrade(view: SessionView, reasonCode: string): SessionView {
  return {
    ...view,
    fidelity: 'partial',
    resolutionState: view.resolutionState === 'ambiguous' ? 'ambiguous' : 'partial',
    reasonCodes: view.reasonCodes.includes(reasonCode) ? view.reasonCodes : [...view.reasonCodes, reasonCode],
  };
}

/** Instances of the representations that did not become the backbone. */
function otherInstances(
  reps: readonly Rep[],
  chosen: ReadonlySet<Rep>,
  backbone: 'db' | 'transcript' | 'none',
): ViewSourceInstance[] {
  return reps
    .filter((rep) => !chosen.has(rep))
    .map((rep) => {
      const c = rep.contribution;
      if (c.kind === 'store-transcript' && backbone === 'db')
        return storeInstance(c, 'superseded', 'superseded-by-store-db');
      if (c.kind === 'store-metadata')
        return storeInstance(c, backbone === 'none' ? 'contributed' : 'superseded', null);
      return rep.view.instances[0]?.state === 'failed'
        ? rep.view.instances[0]
        : storeInstance(c, 'failed', 'source-unavailable');
    });
}

/**
 * When the Store alone speaks for the session and has no session directory, only transcripts are
 * left: if none yields a message and one failed a read limit or its encoding, no safe contributor
 * remains (contract: fatal for that session, never an empty row standing in for it).
 */
function assertSafeContributor(reps: readonly Rep[], backbone: 'db' | 'transcript' | 'none'): void {
  if (backbone !== 'none' || reps.some((r) => r.contribution.kind !== 'store-transcript')) return;
  const diagnostics = reps.flatMap((r) => r.contribution.diagnostics);
  if (diagnostics.some(isReadFailure))
    throw SessionUnavailable.of(reps[0]!.contribution.occurrence.sessionId, diagnostics);
}

export function resolveStoreSession(
  contributions: readonly StoreContribution[],
  options: { alone: boolean } = { alone: true },
): SessionView {
  const reps: Rep[] = contributions.map((contribution) => ({
    ...storeRepresentationView(contribution),
    contribution,
  }));
  const dbs = reps.filter((r) => r.contribution.kind === 'store-db' && r.usable);
  const transcripts = reps.filter((r) => r.contribution.kind === 'store-transcript' && r.usable);
  const backbone = dbs.length > 0 ? 'db' : transcripts.length > 0 ? 'transcript' : 'none';
  if (options.alone) assertSafeContributor(reps, backbone);
  const chosen = backbone === 'db' ? dbs : backbone === 'transcript' ? transcripts : [];
  const facts = contributions[0]!.data.facts;
  let view: SessionView;
  if (chosen.length > 0) view = reconcileReplicas(chosen.map((r) => r.view));
  else {
    const first = reps[0]!;
    const empty = {
      ...first.view,
      resolvedSource: 'store-metadata' as const,
      instances: [],
      diagnostics: [],
      sourceKeys: [],
    };
    view = degrade({ ...empty, transcriptState: 'missing' }, 'store-conversation-unavailable');
  }
  const chosenSet = new Set<Rep>(chosen);
  view = {
    ...view,
    instances: [...view.instances, ...otherInstances(reps, chosenSet, backbone)],
    diagnostics: [
      ...view.diagnostics,
      ...reps.filter((r) => !chosenSet.has(r)).flatMap((r) => r.view.diagnostics),
    ],
    sourceKeys: [
      ...view.sourceKeys,
      ...reps.filter((r) => !chosenSet.has(r)).flatMap((r) => r.view.sourceKeys),
    ],
    transcriptState: reps.find((r) => r.transcriptState !== null)?.transcriptState ?? view.transcriptState,
    // Links are facts about the session, whichever representation backs its messages.
    parentSessionId: reps.find((r) => r.view.parentSessionId !== null)?.view.parentSessionId ?? null,
    subagentEvidence: reps.flatMap((r) => r.view.subagentEvidence ?? []),
    storeLastUsedModel: reps.find((r) => r.view.storeLastUsedModel)?.view.storeLastUsedModel ?? null,
  };
  if (backbone === 'transcript' && facts.dbExpectation === 'expected')
    view = degrade(view, 'expected-store-db-unavailable');
  if (backbone === 'transcript' && facts.dbExpectation === 'unknown')
    view = degrade(view, 'store-db-expectation-unknown');
  // Unsupported metadata leaves workspace and times unknown (this session's, or the cwd a transcript
  // would inherit): never a complete view, so it cannot replace an archived one.
  if (facts.meta?.problem || contributions.some((c) => c.data.facts.workspaceUncertain)) {
    view = degrade(view, 'store-meta-unsupported');
    if (view.workspacePath === null) view = degrade(view, WORKSPACE_UNKNOWN);
  }
  // An unlistable directory may hide a representation, metadata or a cwd of any session.
  if (!facts.inventoryComplete) view = degrade(view, 'source-read-failed');
  return view;
}
