/**
 * SOURCE_LIMIT_EXCEEDED: the same details whether it becomes a partial-result diagnostic (another
 * safe contributor remains) or a fatal I/O error (none does).
 */
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { IoError } from '../../shared/errors.js';
import { LIMIT_SPECS, type LimitField, type LimitUnit, READ_LIMITS_POLICY } from './read-limits.js';

export type LimitOutcome = 'partial' | 'fatal';

export type LimitExceededDetails = {
  policyVersion: typeof READ_LIMITS_POLICY;
  sourceKind: 'jsonl' | 'sqlite' | 'zip';
  bound: LimitField;
  limit: number;
  observedAtLeast: number;
  unit: LimitUnit;
  outcome: LimitOutcome;
  retryableWithOverride: true;
  remedy: string;
};

export function limitExceededDetails(
  bound: LimitField,
  limit: number,
  observedAtLeast: number,
  outcome: LimitOutcome,
): LimitExceededDetails {
  const spec = LIMIT_SPECS[bound];
  return {
    policyVersion: READ_LIMITS_POLICY,
    sourceKind: spec.sourceKind,
    bound,
    limit,
    observedAtLeast,
    unit: spec.unit,
    outcome,
    retryableWithOverride: true,
    remedy: `If this source is trusted, raise the bound for this run only: --source-limit ${bound}=<larger value>.`,
  };
}

/** Thrown by readers when a bound is crossed; callers decide partial vs fatal. */
export class SourceLimitExceeded extends IoError<'SOURCE_LIMIT_EXCEEDED'> {
  constructor(
    readonly bound: LimitField,
    readonly limit: number,
    readonly observedAtLeast: number,
  ) {
    super(
      'SOURCE_LIMIT_EXCEEDED',
      `Source read limit ${bound} (${limit}) exceeded`,
      limitExceededDetails(bound, limit, observedAtLeast, 'fatal'),
    );
  }

  asDiagnostic(scope: { sessionId?: string; sourceRef?: string } = {}): Diagnostic {
    return diagnostic(
      'SOURCE_LIMIT_EXCEEDED',
      `Source read limit ${this.bound} exceeded; the result is partial`,
      { ...limitExceededDetails(this.bound, this.limit, this.observedAtLeast, 'partial') },
      scope,
    );
  }
}

/** Checks an inclusive bound: equality passes, the first unit above it fails. */
export function checkLimit(bound: LimitField, limit: number, observed: number): void {
  if (observed > limit) throw new SourceLimitExceeded(bound, limit, observed);
}
