/**
 * The Store side of session resolution: Store contributions are resolved together (representation
 * selection, replicas), then merged with the Composer view when the same byte-exact session
 * ID exists in both stacks.
 */

import type { Contribution } from '../../extract/source-adapter.js';
import type { StoreContribution } from '../../extract/store/store-contribution.js';
import { InternalError } from '../../shared/errors.js';
import type { SessionView } from '../session-view.js';
import { resolveStoreSession } from '../store/store-resolution.js';
import { mergeSessions, type Preferred } from './merge-sessions.js';

const STORE_KINDS = new Set(['store-db', 'store-transcript', 'store-metadata']);

export function splitStoreContributions(contributions: readonly Contribution[]): {
  store: StoreContribution[];
  others: Contribution[];
} {
  const store = contributions.filter((c): c is StoreContribution => STORE_KINDS.has(c.kind));
  return { store, others: contributions.filter((c) => !STORE_KINDS.has(c.kind)) };
}

/** `capturesContribute`: a capture also holds the session, so the Store is never its only source. */
export function withStore(
  composer: SessionView | null,
  store: readonly StoreContribution[],
  preferred: Preferred,
  capturesContribute: boolean,
): SessionView {
  const alone = composer === null && !capturesContribute;
  const storeView = store.length > 0 ? resolveStoreSession(store, { alone }) : null;
  if (composer && storeView) return mergeSessions(composer, storeView, preferred);
  const view = composer ?? storeView;
  if (!view) throw new InternalError('EMPTY_SESSION_GROUP', 'A session group had no contribution');
  return view;
}
