/**
 * Resolves every hydrated contribution of one logical session into a single SessionView, then
 * finalizes it into rows. Each representation registers how it becomes a view; replica
 * reconciliation and the Composer/Store merge decide between several views.
 */
import type { ComposerGlobalContribution } from '../extract/composer/composer-contribution.js';
import type { Contribution } from '../extract/source-adapter.js';
import { InternalError } from '../shared/errors.js';
import { composerGlobalView } from './composer/composer-global-view.js';
import { finalizeSession } from './finalize-session.js';
import { splitStoreContributions, withStore } from './merge/resolve-with-store.js';
import type { NormalizedSession } from './normalized-session.js';
import type { SessionView } from './session-view.js';

export interface ResolveOptions {
  preferredSource: 'composer' | 'store';
}

type ViewBuilder = (contribution: Contribution) => SessionView;

const VIEW_BUILDERS: Record<string, ViewBuilder> = {
  'composer-global': (c) => composerGlobalView(c as ComposerGlobalContribution),
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
  const { store, others } = splitStoreContributions(contributions);
  const views = others.map(contributionView);
  const [first] = views;
  return finalizeSession(withStore(first ?? null, store, options.preferredSource));
}
