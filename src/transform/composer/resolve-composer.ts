/**
 * Resolves one session's Composer contributions: a readable global occurrence is complete and
 * supersedes workspace entries; else workspace entries form a partial fallback view. Same-tier
 * views reconcile as replicas; nothing readable makes the session unavailable.
 */
import type {
  ComposerGlobalContribution,
  ComposerWorkspaceContribution,
} from '../../extract/composer/composer-contribution.js';
import type { Contribution } from '../../extract/source-adapter.js';
import { reconcileReplicas } from '../replicas/reconcile-replicas.js';
import { SessionUnavailable } from '../session-unavailable.js';
import type { SessionView, ViewSourceInstance } from '../session-view.js';
import { withUnknownWorkspace } from '../workspace/workspace-unknown.js';
import { composerGlobalView } from './composer-global-view.js';
import { composerWorkspaceView } from './composer-workspace-view.js';

function instanceOf(
  contribution: Contribution,
  state: ViewSourceInstance['state'],
  reasonCode: string | null,
) {
  const { occurrence } = contribution;
  return {
    sourceRole: 'composer',
    representation: occurrence.representation,
    state,
    occurrenceRef: occurrence.occurrenceRef,
    carrier: occurrence.carrier,
    workspacePath: occurrence.workspacePath,
    reasonCode,
  } satisfies ViewSourceInstance;
}

function isReadable(contribution: ComposerGlobalContribution | ComposerWorkspaceContribution): boolean {
  if (contribution.data.truncated) return false;
  return contribution.kind === 'composer-global' || contribution.data.entry !== null;
}

export function resolveComposer(contributions: readonly Contribution[]): SessionView {
  const globals = contributions.filter((c): c is ComposerGlobalContribution => c.kind === 'composer-global');
  const workspaces = contributions.filter(
    (c): c is ComposerWorkspaceContribution => c.kind === 'composer-workspace',
  );
  const readableGlobals = globals.filter(isReadable);
  const readableWorkspaces = workspaces.filter(isReadable);
  const withMessages = readableWorkspaces.filter((c) => c.data.entryKind !== 'head');
  const chosen: Contribution[] =
    readableGlobals.length > 0
      ? readableGlobals
      : withMessages.length > 0
        ? withMessages
        : readableWorkspaces;
  const sessionId = contributions[0]?.occurrence.sessionId ?? '';
  if (chosen.length === 0)
    throw SessionUnavailable.of(
      sessionId,
      contributions.flatMap((c) => c.diagnostics),
    );
  const damaged = chosen.find((c) => (c.occurrence.workspaceProblem ?? null) !== null)?.occurrence;
  const view = withUnknownWorkspace(
    reconcileReplicas(
      chosen.map((c) =>
        c.kind === 'composer-global'
          ? composerGlobalView(c as ComposerGlobalContribution)
          : composerWorkspaceView(c as ComposerWorkspaceContribution),
      ),
    ),
    damaged === undefined
      ? null
      : { reason: damaged.workspaceProblem ?? '', sourceRef: damaged.occurrenceRef },
  );
  const others = contributions.filter((c) => !chosen.includes(c));
  const failedGlobal = globals.some((c) => !isReadable(c));
  for (const other of others) {
    const readable = isReadable(other as ComposerGlobalContribution | ComposerWorkspaceContribution);
    view.instances.push(
      readable ? instanceOf(other, 'superseded', null) : instanceOf(other, 'failed', 'source-read-failed'),
    );
    view.diagnostics.push(...other.diagnostics);
  }
  if (failedGlobal && view.resolutionState !== 'ambiguous')
    view.reasonCodes = [
      ...new Set([...view.reasonCodes.filter((r) => r !== 'source-unavailable'), 'source-read-failed']),
    ];
  view.sourceKeys = [...new Set([...view.sourceKeys, ...others.map((c) => c.occurrence.sourceKey)])].sort();
  return view;
}
