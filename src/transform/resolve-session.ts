/**
 * Resolves every hydrated contribution of one logical session into a single SessionView, then
 * finalizes it into rows. Each representation registers how it becomes a view; replica
 * reconciliation and the Composer/Store merge decide between several views.
 */

import type {
  CliStreamContribution,
  CloudCaptureContribution,
  CloudV0Contribution,
  MarkdownExportContribution,
} from '../extract/capture/capture-contribution.js';
import type {
  ComposerGlobalContribution,
  ComposerWorkspaceContribution,
} from '../extract/composer/composer-contribution.js';
import type { Contribution, SessionOccurrence } from '../extract/source-adapter.js';
import { InternalError } from '../shared/errors.js';
import { cliStreamView } from './capture/cli-stream-view.js';
import { cloudAgentView } from './capture/cloud-agent-view.js';
import { cloudV0View } from './capture/cloud-v0-view.js';
import { markdownExportView } from './capture/markdown-export-view.js';
import { isCaptureView, resolveCaptureViews } from './capture/resolve-captures.js';
import { composerGlobalView } from './composer/composer-global-view.js';
import { composerWorkspaceView } from './composer/composer-workspace-view.js';
import { resolveComposer } from './composer/resolve-composer.js';
import { finalizeSession } from './finalize-session.js';
import { splitStoreContributions, withStore } from './merge/resolve-with-store.js';
import type { NormalizedSession } from './normalized-session.js';
import type { SessionView } from './session-view.js';
import { applyScopePlan } from './workspace/scope-plan.js';

export interface ResolveOptions {
  preferredSource: 'composer' | 'store';
  /** The workspace scope outcome of this session: omitted and broadened contributors. */
  scope?: { omitted: SessionOccurrence[]; broadenedRefs: Set<string> };
}

type ViewBuilder = (contribution: Contribution) => SessionView;

const VIEW_BUILDERS: Record<string, ViewBuilder> = {
  'composer-global': (c) => composerGlobalView(c as ComposerGlobalContribution),
  'composer-workspace': (c) => composerWorkspaceView(c as ComposerWorkspaceContribution),
  'cli-stream': (c) => cliStreamView(c as CliStreamContribution),
  'cloud-capture': (c) => cloudAgentView(c as CloudCaptureContribution),
  'cloud-v0-conversation': (c) => cloudV0View(c as CloudV0Contribution),
  'markdown-export': (c) => markdownExportView(c as MarkdownExportContribution),
};

export function contributionView(contribution: Contribution): SessionView {
  const build = VIEW_BUILDERS[contribution.kind];
  if (!build)
    throw new InternalError('UNKNOWN_CONTRIBUTION', 'No transform for a contribution kind', {
      kind: contribution.kind,
    });
  return build(contribution);
}

export function resolveSession(
  contributions: readonly Contribution[],
  options: ResolveOptions,
): NormalizedSession {
  if (contributions.length === 0)
    throw new InternalError('EMPTY_SESSION_GROUP', 'A session group had no contribution');
  const { store, others } = splitStoreContributions(contributions);
  const composer = others.filter((c) => c.kind.startsWith('composer-'));
  const base =
    composer.length > 0 ? resolveComposer(composer) : others.length > 0 ? resolveOthers(others) : null;
  const view = withStore(base, store, options.preferredSource);
  return finalizeSession(options.scope ? applyScopePlan(view, options.scope) : view);
}

/** Non-Composer contributions: several captures of one session reconcile; otherwise the one view. */
function resolveOthers(contributions: readonly Contribution[]): SessionView {
  const views = contributions.map(contributionView);
  return views.length > 1 && views.every(isCaptureView) ? resolveCaptureViews(views) : views[0]!;
}
