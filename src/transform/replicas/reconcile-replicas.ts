/**
 * Reconciles same-role views of one session: equivalent (same digests without provenance) replicas
 * become one view, the others' instances `equivalent-replica`; divergent ones one `ambiguous` view
 * with REPLICA_DIVERGENT. Nothing is ever picked or unioned.
 */
import { diagnostic } from '../../shared/diagnostic.js';
import { InternalError } from '../../shared/errors.js';
import { finalizeSession } from '../finalize-session.js';
import type { SessionView, ViewSourceInstance } from '../session-view.js';

/** The digest two replicas must share to be equivalent. */
export function replicaDigest(view: SessionView): string {
  const neutral: SessionView = {
    ...view,
    workspacePath: null,
    instances: [],
    diagnostics: [],
    sourceKeys: [],
  };
  return finalizeSession(neutral).session.view_digest;
}

/** Logical order first (workspace path), opaque ref only as the tie-break. */
function orderKey(view: SessionView): string {
  const ref = view.instances.map((instance) => instance.occurrenceRef).sort()[0] ?? '';
  return `${view.workspacePath ?? ''}\u0000${ref}`;
}

function smallestPath(views: readonly SessionView[]): string | null {
  const paths = views.map((view) => view.workspacePath).filter((path): path is string => path !== null);
  return paths.sort()[0] ?? null;
}

/** A metadata value when every replica agrees on it, else null (never one replica's choice). */
function agreed<T>(views: readonly SessionView[], pick: (view: SessionView) => T): T | null {
  const values = views.map((view) => JSON.stringify(pick(view)));
  return values.every((value) => value === values[0]) ? pick(views[0]!) : null;
}

function merged(views: readonly SessionView[]) {
  return {
    diagnostics: views.flatMap((view) => view.diagnostics),
    sourceKeys: [...new Set(views.flatMap((view) => view.sourceKeys))].sort(),
  };
}

function ambiguity(ordered: readonly SessionView[], distinctViews: number): SessionView {
  const first = ordered[0]!;
  const instances: ViewSourceInstance[] = ordered.flatMap((view) =>
    view.instances.map((instance) => ({ ...instance, reasonCode: 'replica-divergent' })),
  );
  const occurrenceRefs = instances.map((instance) => instance.occurrenceRef).sort();
  const { diagnostics, sourceKeys } = merged(ordered);
  diagnostics.push(
    diagnostic(
      'REPLICA_DIVERGENT',
      'Replicas of this session differ; the session is kept as one unresolved ambiguity',
      {
        representation: instances[0]?.representation ?? null,
        occurrenceCount: occurrenceRefs.length,
        distinctViews,
        occurrenceRefs,
      },
      { sessionId: first.sessionId },
    ),
  );
  return {
    ...first,
    title: agreed(ordered, (view) => view.title),
    workspacePath: smallestPath(ordered),
    fidelity: 'partial',
    resolutionState: 'ambiguous',
    reasonCodes: ['replica-divergent'],
    createdAt: agreed(ordered, (view) => view.createdAt),
    updatedAt: agreed(ordered, (view) => view.updatedAt),
    contextTokensUsed: agreed(ordered, (view) => view.contextTokensUsed),
    contextTokenLimit: agreed(ordered, (view) => view.contextTokenLimit),
    messages: [],
    instances,
    diagnostics,
    sourceKeys,
    extensions: null,
  };
}

export function reconcileReplicas(views: readonly SessionView[]): SessionView {
  if (views.length === 0) throw new InternalError('EMPTY_REPLICA_SET', 'No replica to reconcile');
  const ordered = [...views].sort((a, b) =>
    orderKey(a) < orderKey(b) ? -1 : orderKey(a) > orderKey(b) ? 1 : 0,
  );
  if (ordered.length === 1) return ordered[0]!;
  const digests = new Set(ordered.map(replicaDigest));
  if (digests.size > 1) return ambiguity(ordered, digests.size);
  const [representative, ...replicas] = ordered;
  const { diagnostics, sourceKeys } = merged(ordered);
  return {
    ...representative!,
    workspacePath: smallestPath(ordered),
    instances: [
      ...representative!.instances,
      ...replicas.flatMap((view) =>
        view.instances.map((instance) => ({ ...instance, state: 'equivalent-replica' as const })),
      ),
    ],
    diagnostics,
    sourceKeys,
  };
}
