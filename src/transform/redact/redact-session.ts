/**
 * `--redact`: a pure transform over a finalized session's rows, applied after identities are
 * computed (IDs, keys and order never change), then the view digest is recomputed. Only text and
 * JSON payload columns are touched; the run reports counts per kind, never the redacted values.
 */
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { canonicalJson } from '../canonical-json.js';
import type { NormalizedSession } from '../normalized-session.js';
import { computeViewDigest } from '../view-digest.js';
import {
  emptyCounts,
  REDACTION_KINDS,
  type RedactionCounts,
  redactJsonValue,
  redactText,
} from './redact-text.js';

function text(value: string | null, counts: RedactionCounts): string | null {
  return value === null ? null : redactText(value, counts);
}

function json(value: string | null, counts: RedactionCounts): string | null {
  return value === null ? null : canonicalJson(redactJsonValue(JSON.parse(value), counts));
}

export function redactSession(input: NormalizedSession, counts: RedactionCounts): NormalizedSession {
  const { view_digest: _old, ...sessionFields } = input.session;
  const session = {
    ...sessionFields,
    title: text(sessionFields.title, counts),
    extensions: json(sessionFields.extensions, counts),
  };
  const messages = input.messages.map((row) => ({
    ...row,
    content: redactText(row.content, counts),
    thinking: text(row.thinking, counts),
    extensions: json(row.extensions, counts),
  }));
  const toolCalls = input.toolCalls.map((row) => ({
    ...row,
    params: json(row.params, counts),
    result: text(row.result, counts),
    error: text(row.error, counts),
    files: json(row.files, counts)!,
    extensions: json(row.extensions, counts),
  }));
  const view_digest = computeViewDigest({
    session,
    messages,
    toolCalls,
    sourceInstances: input.sourceInstances,
  });
  return { ...input, session: { ...session, view_digest }, messages, toolCalls };
}

/** Redacts one session and counts what it replaced (a resolve worker sends both back). */
export function redactCounted(input: NormalizedSession): {
  session: NormalizedSession;
  counts: RedactionCounts;
} {
  const counts = emptyCounts();
  return { session: redactSession(input, counts), counts };
}

/** Totals the counts of a run's redacted sessions and reports them as one diagnostic. */
export class RunRedaction {
  private readonly counts = emptyCounts();
  private sessionsAffected = 0;

  record(counts: RedactionCounts): void {
    const hits = REDACTION_KINDS.reduce((sum, kind) => sum + counts[kind], 0);
    if (hits > 0) this.sessionsAffected++;
    for (const kind of REDACTION_KINDS) this.counts[kind] += counts[kind];
  }

  diagnostic(): Diagnostic {
    const redactions = REDACTION_KINDS.reduce((sum, kind) => sum + this.counts[kind], 0);
    return diagnostic(
      'REDACTION_APPLIED',
      `Redaction replaced ${redactions} value(s) in ${this.sessionsAffected} session(s)`,
      { redactions, sessionsAffected: this.sessionsAffected, byKind: { ...this.counts } },
      { severity: 'info' },
    );
  }
}
