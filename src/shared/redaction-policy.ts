/**
 * The redaction policy a warehouse owns: redacted or not, the ruleset version, whether
 * home-directory user names are replaced, and a check value of the identity key. DuckDB keeps it in
 * `etl_meta`, Parquet in each manifest; a warehouse without one was never redacted.
 */
import { IntegrityError } from './errors.js';

export interface RedactionPolicy {
  enabled: boolean;
  ruleset: number;
  homePaths: boolean;
  keyCheck: string | null;
}

/** The `etl_meta` key (DuckDB) and manifest member (Parquet) holding the policy. */
export const REDACTION_POLICY_KEY = 'redaction_policy';

/** Members in a fixed order, so equal policies serialize to equal text. */
export function serializePolicy(policy: RedactionPolicy): string {
  const { enabled, homePaths, keyCheck, ruleset } = policy;
  return JSON.stringify({ enabled, homePaths, keyCheck, ruleset });
}

function invalid(): IntegrityError {
  return new IntegrityError('REDACTION_POLICY_INVALID', 'The stored redaction policy is unreadable', {
    remedy: 'Restore the warehouse from a backup; its redaction state cannot be trusted.',
  });
}

/** The stored policy, or null when none was ever stored; anything unreadable fails closed. */
export function parsePolicy(value: unknown): RedactionPolicy | null {
  if (value === undefined || value === null) return null;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw invalid();
    }
  }
  const p = parsed as Partial<RedactionPolicy> | null;
  if (
    typeof p !== 'object' ||
    p === null ||
    typeof p.enabled !== 'boolean' ||
    typeof p.homePaths !== 'boolean' ||
    !Number.isInteger(p.ruleset) ||
    (p.keyCheck !== null && typeof p.keyCheck !== 'string')
  )
    throw invalid();
  return { enabled: p.enabled, ruleset: p.ruleset!, homePaths: p.homePaths, keyCheck: p.keyCheck ?? null };
}

export function samePolicy(a: RedactionPolicy | null, b: RedactionPolicy | null): boolean {
  return (a === null ? null : serializePolicy(a)) === (b === null ? null : serializePolicy(b));
}
