/**
 * The warehouse owns its redaction policy; a run only asks. No request keeps the stored policy;
 * turning it off is refused unless allowed; turning it on, a newer ruleset or home paths re-redact
 * the archive before loading; an older build's ruleset fails closed.
 */
import type { ArchiveRewrite, StoredSession, WarehouseTarget } from '../load/target.js';
import { type Diagnostic, diagnostic } from '../shared/diagnostic.js';
import { IntegrityError, UsageError } from '../shared/errors.js';
import { loadRedactionKey } from '../shared/redaction-key.js';
import type { RedactionPolicy } from '../shared/redaction-policy.js';
import type { NormalizedSession } from '../transform/normalized-session.js';
import { IdentitySeal } from '../transform/redact/identity-seal.js';
import type { RedactionCounts } from '../transform/redact/redact-session.js';
import { RULESET_VERSION } from '../transform/redact/ruleset.js';
import type { RedactionJob } from '../transform/resolve/resolve-job.js';
import type { CatalogEntry } from './catalog-sources.js';

export interface RedactionRequest {
  /** `--redact` (true), `--no-redact` (false) or the config file's `redact`; undefined keeps the stored policy. */
  redact?: boolean;
  /** `--redact-home-paths` / the config file's `redactHomePaths`; implies redaction. */
  homePaths?: boolean;
  /** `--allow-unredacted`: the explicit consent to turn redaction (or home paths) off. */
  allowUnredacted?: boolean;
  /** Loads (or creates) the identity key, hex; called only when redaction is on. */
  loadKey: () => string;
}

export interface RedactionDecision {
  /** The policy the warehouse stores from this run on (null: it never had one and gets none). */
  policy: RedactionPolicy | null;
  /** How sessions are redacted, or null when redaction is off. */
  job: RedactionJob | null;
  /** Archived sessions must be re-redacted, and plaintext removed, before loading. */
  rewrite: boolean;
}

export function decideRedaction(
  stored: RedactionPolicy | null,
  request: RedactionRequest,
): RedactionDecision {
  const storedOn = stored?.enabled === true;
  if (request.redact === false && request.homePaths === true) {
    throw new UsageError('REDACTION_OPTIONS_CONFLICT', 'Home-path redaction needs redaction turned on', {});
  }
  if (storedOn && stored!.ruleset > RULESET_VERSION) {
    throw new IntegrityError(
      'REDACTION_RULESET_NEWER',
      'The warehouse was redacted by a newer ruleset than this build has; refusing to touch it',
      { warehouseRuleset: stored!.ruleset, supportedRuleset: RULESET_VERSION, remedy: 'Upgrade cursor-etl.' },
    );
  }
  const enabled = request.redact ?? (request.homePaths === true || storedOn);
  const homePaths = enabled && (request.homePaths ?? (storedOn && stored!.homePaths));
  if (storedOn && request.allowUnredacted !== true && (!enabled || (stored!.homePaths && !homePaths))) {
    throw new UsageError(
      'REDACTION_POLICY_DOWNGRADE',
      'The warehouse is redacted; turning redaction off needs explicit consent',
      {
        storedHomePaths: stored!.homePaths,
        remedy:
          'Run without --no-redact (the stored policy applies), or add --allow-unredacted to load plaintext from now on.',
      },
    );
  }
  if (!enabled) {
    const policy =
      stored === null ? null : { enabled: false, ruleset: RULESET_VERSION, homePaths: false, keyCheck: null };
    return { policy, job: null, rewrite: false };
  }
  const sealKey = request.loadKey();
  const keyCheck = new IdentitySeal(sealKey).keyCheck();
  if (storedOn && stored!.keyCheck !== keyCheck) {
    throw new UsageError(
      'REDACTION_KEY_MISMATCH',
      "The identity key is not the one this warehouse's sealed IDs were made with",
      { remedy: 'Point `redactionKeyFile` in the config file at the key file used for this warehouse.' },
    );
  }
  const rewrite = !storedOn || stored!.ruleset < RULESET_VERSION || (homePaths && !stored!.homePaths);
  return {
    policy: { enabled: true, ruleset: RULESET_VERSION, homePaths, keyCheck },
    job: { homePaths, sealKey },
    rewrite,
  };
}

function asNormalized(stored: StoredSession): NormalizedSession {
  return { ...stored, diagnostics: [], sourceKeys: [] };
}

/** How an archive is rewritten under a redacting decision: rows redacted, IDs sealed, counts kept. */
export function archiveRewrite(
  policy: RedactionPolicy,
  job: RedactionJob,
  counts: RedactionCounts,
): ArchiveRewrite {
  const seal = new IdentitySeal(job.sealKey);
  return {
    policy,
    session: async (stored) => {
      const { redactSession } = await import('../transform/redact/redact-session.js');
      const { session, messages, toolCalls, sourceInstances, rowProvenance, fileEdits, usage } =
        await redactSession(asNormalized(stored), { homePaths: job.homePaths, seal }, counts);
      return { session, messages, toolCalls, sourceInstances, rowProvenance, fileEdits, usage };
    },
    sessionId: (id) => seal.sealId(id),
    occurrenceRef: (ref) => seal.sealRef(ref),
  };
}

/** No flag and no config: the stored policy applies, with the default identity key file. */
export function defaultRedactionRequest(): RedactionRequest {
  return { loadKey: () => loadRedactionKey() };
}

/**
 * Applies the decision to an open target: re-redacts its archive first when the decision says so.
 * `rewritten` is the number of archived sessions rewritten, or null when nothing was rewritten.
 */
export async function settleRedaction(
  target: WarehouseTarget,
  request: RedactionRequest,
  counts: RedactionCounts,
): Promise<{ decision: RedactionDecision; rewritten: number | null }> {
  const decision = decideRedaction(target.redactionPolicy, request);
  if (!decision.rewrite || decision.policy === null || decision.job === null)
    return { decision, rewritten: null };
  const rewritten = await target.rewriteArchive(archiveRewrite(decision.policy, decision.job, counts));
  return { decision, rewritten: rewritten > 0 ? rewritten : null };
}

/** Reports an archive rewrite: sessions rewritten and replacements per rule, never a value. */
export function archiveRewrittenDiagnostic(sessions: number, counts: RedactionCounts): Diagnostic {
  const byRule = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
  const redactions = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return diagnostic(
    'REDACTION_ARCHIVE_REWRITTEN',
    `Re-redacted ${sessions} archived session(s) under ruleset ${RULESET_VERSION} (${redactions} replacement(s))`,
    { sessions, redactions, byRule, ruleset: RULESET_VERSION },
    { severity: 'info' },
  );
}

/** A catalog in sealed identity: content-hashed session IDs (Markdown) and their references sealed. */
export function sealCatalog(
  bySource: Map<string, CatalogEntry[]>,
  seal: IdentitySeal | null,
): Map<string, CatalogEntry[]> {
  if (seal === null) return bySource;
  for (const entries of bySource.values()) {
    entries.forEach((entry, i) => {
      const { occurrence } = entry;
      const sessionId = seal.sealId(occurrence.sessionId);
      if (sessionId === occurrence.sessionId) return;
      entries[i] = {
        ...entry,
        occurrence: { ...occurrence, sessionId, occurrenceRef: seal.sealRef(occurrence.occurrenceRef) },
      };
    });
  }
  return bySource;
}
