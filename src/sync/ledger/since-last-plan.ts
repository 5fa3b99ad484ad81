/**
 * `--since-last` planning from the ledger: which sources are unchanged (skipped without reading
 * payloads), and which sessions must be re-extracted because one of their occurrences is new,
 * changed, gone, or carries no per-session fingerprint. Timestamps never enter the decision.
 */
import type { SessionOccurrence } from '../../extract/source-adapter.js';
import type { LedgerSource, Membership, SyncLedgerStore } from '../../load/sync-ledger.js';
import { canonicalHash } from '../../shared/json/canonical-json.js';
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

/**
 * An occurrence's evidence as the ledger keeps it: its in-source fingerprint with the workspace it
 * is attributed to, which other files of the tree decide; null when the source has no fingerprint.
 */
function occurrenceEvidence(occurrence: SessionOccurrence): string | null {
  const fingerprint = occurrence.sessionFingerprint;
  if (fingerprint === undefined) return null;
  return canonicalHash([fingerprint, occurrence.workspacePath, occurrence.workspaceMemberships ?? null]);
}

export function membershipsOf(entries: readonly CatalogEntry[]): Membership[] {
  return entries.map(({ occurrence }) => ({
    sessionId: occurrence.sessionId,
    sourceKey: occurrence.sourceKey,
    occurrenceRef: occurrence.occurrenceRef,
    sessionFingerprint: occurrenceEvidence(occurrence),
    contentFingerprint: occurrence.contentFingerprint?.(false) ?? null,
  }));
}

/** Sessions whose view may differ from the archived one, judged per occurrence. */
export async function affectedSessions(
  ledger: SyncLedgerStore,
  catalogued: readonly SourceClassification[],
  entries: ReadonlyMap<string, CatalogEntry[]>,
  vanishedSourceKeys: readonly string[],
  unreadSourceKeys: ReadonlySet<string> = new Set(),
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
    const unmoved: [SessionOccurrence, Membership][] = [];
    for (const { occurrence } of current) {
      seen.add(occurrence.occurrenceRef);
      const before = prior.get(occurrence.occurrenceRef);
      const evidence = occurrenceEvidence(occurrence);
      if (before === undefined || evidence === null || before.sessionFingerprint !== evidence) {
        affected.add(occurrence.sessionId);
      } else if (occurrence.contentFingerprint !== undefined) unmoved.push([occurrence, before]);
    }
    // A source that could not be read lists nothing: its sessions keep their archived views.
    for (const [ref, member] of prior) {
      if (seen.has(ref) || unreadSourceKeys.has(found.source.sourceKey)) continue;
      affected.add(member.sessionId);
    }
    // An in-place UPDATE keeps counts and rowids, and may come with a write that moved another
    // session's evidence: in a changed source, each session whose evidence held is judged by content.
    for (const [occurrence, before] of unmoved) {
      const content = occurrence.contentFingerprint!(true);
      if (content === null || before.contentFingerprint !== content) affected.add(occurrence.sessionId);
    }
  }
  for (const key of vanishedSourceKeys) {
    for (const member of await ledger.readMemberships(key)) affected.add(member.sessionId);
  }
  return affected;
}
