/**
 * Several captures of one session in one run: equivalent ones reconcile into one view (the others
 * become `equivalent-replica`); a single complete capture supersedes provisional ones; anything
 * else is divergent and becomes one explicit ambiguity (never picked or unioned silently).
 */
import { diagnostic } from '../../shared/diagnostic.js';
import { finalizeSession } from '../finalize-session.js';
import type { InstanceState, SessionView } from '../session-view.js';

function contentDigest(view: SessionView): string {
  return finalizeSession({ ...view, instances: [], diagnostics: [], sourceKeys: [] }).session.view_digest;
}

function withStates(
  base: SessionView,
  views: readonly SessionView[],
  state: (v: SessionView) => InstanceState,
  reason: string | null,
): SessionView {
  return {
    ...base,
    instances: views.flatMap((view) =>
      view.instances.map((instance) => {
        const s = view === base ? instance.state : state(view);
        return { ...instance, state: s, reasonCode: view === base ? instance.reasonCode : reason };
      }),
    ),
    diagnostics: views.flatMap((view) => view.diagnostics),
    sourceKeys: views.flatMap((view) => view.sourceKeys),
  };
}

export function resolveCaptureViews(views: readonly SessionView[]): SessionView {
  const [first] = views;
  const digests = views.map(contentDigest);
  if (digests.every((digest) => digest === digests[0]))
    return withStates(first!, views, () => 'equivalent-replica', null);
  const complete = views.filter((view) => view.fidelity === 'complete');
  const completeDigests = new Set(complete.map((view) => digests[views.indexOf(view)]));
  if (completeDigests.size === 1)
    return withStates(
      complete[0]!,
      views,
      (view) => (view.fidelity === 'complete' ? 'equivalent-replica' : 'superseded'),
      'capture-provisional-superseded',
    );
  const ambiguous: SessionView = {
    ...first!,
    fidelity: 'partial',
    resolutionState: 'ambiguous',
    reasonCodes: ['capture-divergent'],
    messages: [],
  };
  const resolved = withStates(ambiguous, views, () => 'contributed', 'capture-divergent');
  resolved.diagnostics.push(
    diagnostic(
      'CAPTURE_DIVERGENT',
      'Several captures of one session differ and none supersedes the others; nothing was picked',
      { captures: views.length },
      { sessionId: first!.sessionId },
    ),
  );
  return resolved;
}
