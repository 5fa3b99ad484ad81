/** One session's contributions to the rows the load takes (redacted when on): the unit a worker runs. */
import type { Contribution } from '../extract/source-adapter.js';
import type { NormalizedSession } from '../transform/normalized-session.js';
import { redactCounted } from '../transform/redact/redact-session.js';
import type { RedactionCounts } from '../transform/redact/redact-text.js';
import { resolveSession } from '../transform/resolve-session.js';
import type { ResolveRequest, ResolveSettings } from './resolve-job.js';

export interface Resolved {
  session: NormalizedSession;
  counts: RedactionCounts | null;
}

export function resolveForLoad(
  contributions: readonly Contribution[],
  scope: ResolveRequest['scope'],
  settings: ResolveSettings,
): Resolved {
  const resolved = resolveSession(contributions, { preferredSource: settings.preferredSource, scope });
  return settings.redact ? redactCounted(resolved) : { session: resolved, counts: null };
}
