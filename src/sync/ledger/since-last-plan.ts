/**
 * `--since-last` planning from the ledger: which sources are unchanged (skipped without reading
 * payloads), and which sessions must be re-extracted because one of their occurrences is new,
 * changed, gone, or carries no per-session fingerprint. Timestamps never enter the decision.
 */
import type { LedgerSource, SyncLedgerStore } from '../../load/sync-ledger.js';
import type { CatalogEntry, FoundSource } from '../catalog-sources.js';

export type SourceState = 'unchanged' | 'changed' | 'new' | 'options-changed';

export interface SourceClassification {
  found: FoundSource;
  fingerprintDigest: string;
  state: SourceState;
}

export function classifySource(
  fingerprintDigest: string,
  prior: LedgerSource | undefined,
  optionsDigest: string,
): SourceState {
  if (prior === undefined || !prior.present) return 'new';
  // Different limits or preference can change every view, so fingerprints alone cannot vouch for it.
  if (prior.optionsDigest !== optionsDigest) return 'options-changed';
  return prior.fingerprintDigest === fingerprintDigest ? 'unchanged' : 'changed';
}

/** Sessions whose view may differ from the archived one, judged per occurrence. */
export async function affectedSessions(
  ledger: SyncLedgerStore,
  catalogued: readonly SourceClassification[],
  entries: ReadonlyMap<string, CatalogEntry[]>,
  vanishedSourceKeys: readonly string[],
): Promise<Set<string>> {
  const affected = new Set<string>();
  for (const { found, state } of catalogued) {
    const current = entries.get(found.source.sourceKey) ?? [];
    if (state !== 'changed') {
      for (const { occurrence } of current) affected.add(occurrence.sessionId);
      continue;
    }
    const prior = new Map(
      (await ledger.readMemberships(found.source.sourceKey)).map((m) => [m.occurrenceRef, m]),
    );
    const seen = new Set<string>();
    for (const { occurrence } of current) {
      seen.add(occurrence.occurrenceRef);
      const before = prior.get(occurrence.occurrenceRef);
      const fingerprint = occurrence.sessionFingerprint ?? null;
      if (before === undefined || fingerprint === null || before.sessionFingerprint !== fingerprint)
        affected.add(occurrence.sessionId);
    }
    for (const [ref, member] of prior) if (!seen.has(ref)) affected.add(member.sessionId);
  }
  for (const key of vanishedSourceKeys) {
    for (const member of await ledger.readMemberships(key)) affected.add(member.sessionId);
  }
  return affected;
}
