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
import type { CodeTrackingContribution } from '../extract/code-tracking/code-tracking-contribution.js';
import type {
  ComposerGlobalContribution,
  ComposerWorkspaceContribution,
} from '../extract/composer/composer-contribution.js';
import type { SdkAgentContribution } from '../extract/sdk/sdk-contribution.js';
import type { Contribution, SessionOccurrence } from '../extract/source-adapter.js';
import { InternalError } from '../shared/errors.js';
import { resolveCaptureWithCursor } from './capture/capture-precedence.js';
import { cliStreamView } from './capture/cli-stream-view.js';
import { cloudAgentView } from './capture/cloud-agent-view.js';
import { cloudV0View } from './capture/cloud-v0-view.js';
import { markdownExportView } from './capture/markdown-export-view.js';
import { resolveCaptureViews } from './capture/resolve-captures.js';
import { withCodeTracking } from './code-tracking/code-tracking-enrichment.js';
import { composerGlobalView } from './composer/composer-global-view.js';
import { composerWorkspaceView } from './composer/composer-workspace-view.js';
import { resolveComposer } from './composer/resolve-composer.js';
import { finalizeSession } from './finalize-session.js';
import { splitStoreContributions, withStore } from './merge/resolve-with-store.js';
import type { NormalizedSession } from './normalized-session.js';
import { resolveWithSdk } from './sdk/sdk-view.js';
import type { SessionView } from './session-view.js';
import { applyScopePlan } from './workspace/scope-plan.js';

export interface ResolveOptions {
  preferredSource: 'composer' | 'store';
  /** The workspace scope outcome of this session: omitted and broadened contributors. */
  scope?: { omitted: SessionOccurrence[]; broadenedRefs: Set<string> };
  /** False when a later step (redaction) rewrites the rows and computes the digest itself. */
  digest?: boolean;
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

/** Resolves decoded contributions (global Composer rows arrive as bytes; `decodedContributions` first). */
export function resolveSession(
  contributions: readonly Contribution[],
  options: ResolveOptions,
): NormalizedSession {
  if (contributions.length === 0)
    throw new InternalError('EMPTY_SESSION_GROUP', 'A session group had no contribution');
  const tracking = contributions.filter((c): c is CodeTrackingContribution => c.kind === 'ai-code-tracking');
  const { store, others } = splitStoreContributions(
    contributions.filter((c) => c.kind !== 'ai-code-tracking'),
  );
  const sdk = others.filter((c): c is SdkAgentContribution => c.kind === 'sdk-agent-store');
  const composer = others.filter((c) => c.kind.startsWith('composer-'));
  const captures = others.filter((c) => !c.kind.startsWith('composer-') && c.kind !== 'sdk-agent-store');
  const ide =
    composer.length > 0 || store.length > 0
      ? withStore(
          composer.length > 0 ? resolveComposer(composer) : null,
          store,
          options.preferredSource,
          captures.length > 0 || sdk.length > 0,
        )
      : null;
  // The SDK store enriches the agent's transcript view, or alone stands for its runs.
  const cursor = sdk.length > 0 ? resolveWithSdk(ide, sdk) : ide;
  const capture = captures.length > 0 ? resolveCaptures(captures) : null;
  const resolved = cursor && capture ? resolveCaptureWithCursor(cursor, capture) : (cursor ?? capture);
  if (!resolved) throw new InternalError('EMPTY_SESSION_GROUP', 'A session group had no contribution');
  const view = tracking.length > 0 ? withCodeTracking(resolved, tracking) : resolved;
  return finalizeSession(options.scope ? applyScopePlan(view, options.scope) : view, options.digest ?? true);
}

/** Several captures of one session reconcile (replicas, supersession, ambiguity); else the one view. */
function resolveCaptures(contributions: readonly Contribution[]): SessionView {
  const views = contributions.map(contributionView);
  return views.length > 1 ? resolveCaptureViews(views) : views[0]!;
}
