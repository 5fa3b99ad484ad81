/** One session's contributions to the rows the load takes (redacted when on): the unit a worker runs. */
import type { ComposerGlobalBytesContribution } from '../../extract/composer/composer-contribution.js';
import { decodeGlobalSession } from '../../extract/composer/global-session-decode.js';
import type { Contribution } from '../../extract/source-adapter.js';
import { decodeStoreDbContribution } from '../../extract/store/leaf-decode.js';
import type { StoreDbBytesContribution } from '../../extract/store/store-contribution.js';
import type { NormalizedSession } from '../normalized-session.js';
import { IdentitySeal } from '../redact/identity-seal.js';
import type { RedactionCounts } from '../redact/redact-session.js';
import { resolveSession } from '../resolve-session.js';
import type { ResolveRequest, ResolveSettings } from './resolve-job.js';

export interface Resolved {
  session: NormalizedSession;
  counts: RedactionCounts | null;
}

/**
 * Hydration leaves global Composer rows and store.db leaves undecoded (bytes cross to a worker far
 * cheaper than parsed messages), so the extract stage's decoding runs here, wherever the session is
 * resolved.
 */
export function decodedContributions(hydrated: readonly Contribution[]): Contribution[] {
  return hydrated.map((contribution) => {
    if (contribution.kind === 'composer-global-bytes')
      return decodeGlobalSession(contribution as ComposerGlobalBytesContribution);
    if (contribution.kind === 'store-db-bytes')
      return decodeStoreDbContribution(contribution as StoreDbBytesContribution);
    return contribution;
  });
}

const seals = new Map<string, IdentitySeal>();

function sealFor(key: string): IdentitySeal {
  let seal = seals.get(key);
  if (seal === undefined) {
    seal = new IdentitySeal(key);
    seals.set(key, seal);
  }
  return seal;
}

export async function resolveForLoad(
  contributions: readonly Contribution[],
  scope: ResolveRequest['scope'],
  settings: ResolveSettings,
): Promise<Resolved> {
  const resolved = resolveSession(decodedContributions(contributions), {
    preferredSource: settings.preferredSource,
    scope,
    digest: settings.redaction === null,
  });
  const redaction = settings.redaction;
  if (redaction === null) return { session: resolved, counts: null };
  // Loaded only by a redacting run: the secret scanner it links is most of the bundle's code.
  const { redactCounted } = await import('../redact/redact-session.js');
  return redactCounted(resolved, { homePaths: redaction.homePaths, seal: sealFor(redaction.sealKey) });
}
