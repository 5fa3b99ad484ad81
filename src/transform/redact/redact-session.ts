/**
 * Redacts one finalized session: text and JSON columns are split into leaf texts, scanned at once
 * by the library and the own rules, and rebuilt with each secret replaced by a rule marker; with a
 * seal, content-hashed IDs are sealed. Only counts per rule are kept.
 */
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { canonicalJson } from '../../shared/json/canonical-json.js';
import { messageArchiveKey, sessionArchiveKey, toolArchiveKey } from '../archive-keys.js';
import type { NormalizedSession } from '../normalized-session.js';
import { computeViewDigest } from '../view-digest.js';
import { candidateText } from './candidate-text.js';
import type { IdentitySeal } from './identity-seal.js';
import { type Doc, decompose, decomposeJson, Leaves, rebuild } from './json-document.js';
import { libraryRuleSpans } from './library-rules.js';
import { ownRuleSpans } from './own-rules.js';
import { marker, RULESET_VERSION, type Span } from './ruleset.js';

export type RedactionCounts = Record<string, number>;

export interface RedactionSettings {
  /** Replace home-directory user names in paths (opt-in). */
  homePaths: boolean;
  /** Seals content-hashed IDs; null leaves IDs as they are (a scan of already redacted rows). */
  seal: IdentitySeal | null;
}

/** Spans that are not secrets themselves: kept only where no secret span overlaps them. */
const SECONDARY = new Set(['email', 'home-path']);

/** Overlapping secret spans become one, named after the first rule found there. */
function mergedSpans(spans: Span[]): Span[] {
  const order = (a: Span, b: Span): number => a.start - b.start || b.end - a.end;
  const merged: Span[] = [];
  for (const span of spans.filter((s) => !SECONDARY.has(s.rule)).sort(order)) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  const overlaps = (s: Span): boolean => merged.some((m) => s.start < m.end && m.start < s.end);
  for (const span of spans.filter((s) => SECONDARY.has(s.rule)).sort(order))
    if (!overlaps(span)) merged.push({ ...span });
  return merged.sort(order);
}

function applySpans(text: string, spans: Span[], counts: RedactionCounts): string {
  if (spans.length === 0) return text;
  const pieces: string[] = [];
  let at = 0;
  for (const span of mergedSpans(spans)) {
    pieces.push(text.slice(at, span.start), marker(span.rule));
    counts[span.rule] = (counts[span.rule] ?? 0) + 1;
    at = span.end;
  }
  pieces.push(text.slice(at));
  return pieces.join('');
}

const HOME_CANDIDATE = /\/home\/|\/Users\/|Users\\/;

/** Redacts many texts together (one library call per few MB). */
export class TextBatch {
  private readonly values: { value: string; json: boolean }[] = [];

  /** Adds a text column's value (redacted as JSON when it parses as JSON); returns its slot. */
  text(value: string): number {
    return this.values.push({ value, json: false }) - 1;
  }

  /** Adds a JSON column's value (canonical JSON text); returns its slot. */
  json(value: string): number {
    return this.values.push({ value, json: true }) - 1;
  }

  /** Scans every slot's leaves together and returns each slot's redacted value. */
  async redact(settings: Pick<RedactionSettings, 'homePaths'>, counts: RedactionCounts): Promise<string[]> {
    const leaves = new Leaves();
    const candidate = (value: string): boolean =>
      candidateText(value) || (settings.homePaths && HOME_CANDIDATE.test(value));
    const docs: (Doc | null)[] = this.values.map(({ value, json }) =>
      !candidate(value) ? null : json ? decomposeJson(value, leaves) : decompose(value, leaves),
    );
    const texts = leaves.texts;
    const library = await libraryRuleSpans(texts);
    const redacted = texts.map((text, i) =>
      applySpans(text, ownRuleSpans(text, settings, library[i]), counts),
    );
    const onSecretValue = (): void => {
      counts['secret-assignment'] = (counts['secret-assignment'] ?? 0) + 1;
    };
    return this.values.map(({ value, json }, i) => {
      const doc = docs[i];
      if (doc === null || doc === undefined) return value;
      const out = rebuild(doc, redacted, onSecretValue);
      // A redacted key may change the member order canonical JSON requires.
      return json && out !== value ? canonicalJson(JSON.parse(out)) : out;
    });
  }
}

function sealSession(input: NormalizedSession, seal: IdentitySeal): NormalizedSession {
  const sessionId = seal.sealId(input.session.session_id);
  // A message ID recurs as parent and in its tool calls' rows: each is sealed once per session.
  const sealed = new Map<string, string>();
  const id = (value: string): string => {
    let out = sealed.get(value);
    if (out === undefined) {
      out = seal.sealId(value);
      sealed.set(value, out);
    }
    return out;
  };
  const orNull = (value: string | null): string | null => (value === null ? null : id(value));
  const messages = input.messages.map((row) => {
    const messageId = id(row.message_id);
    return {
      ...row,
      session_id: sessionId,
      message_id: messageId,
      archive_key: messageArchiveKey(sessionId, messageId),
      parent_message_id: orNull(row.parent_message_id),
    };
  });
  const toolCalls = input.toolCalls.map((row) => {
    const messageId = id(row.message_id);
    return {
      ...row,
      session_id: sessionId,
      message_id: messageId,
      archive_key: toolArchiveKey(messageArchiveKey(sessionId, messageId), row.tool_ordinal),
      tool_id: id(row.tool_id),
    };
  });
  const sealedRef = sessionId !== input.session.session_id;
  const toolKeys = new Map(input.toolCalls.map((row, i) => [row.archive_key, toolCalls[i]!.archive_key]));
  const rowProvenance = input.rowProvenance.map((row) => ({
    ...row,
    session_id: sessionId,
    row_id: row.row_kind === 'message' ? id(row.row_id) : (toolKeys.get(row.row_id) ?? row.row_id),
    locator: seal.sealLocator(row.locator, input.session.session_id, sessionId),
  }));
  const usage = input.usage.map((row) => ({
    ...row,
    session_id: sessionId,
    message_id: orNull(row.message_id),
  }));
  const sourceInstances = input.sourceInstances.map((row) => ({
    ...row,
    session_id: sessionId,
    occurrence_ref: sealedRef ? seal.sealRef(row.occurrence_ref) : row.occurrence_ref,
  }));
  const fileEdits = input.fileEdits.map((row) => ({
    ...row,
    session_id: sessionId,
    message_id: id(row.message_id),
  }));
  return {
    ...input,
    session: {
      ...input.session,
      session_id: sessionId,
      archive_key: sessionArchiveKey(sessionId),
      parent_session_id: orNull(input.session.parent_session_id),
      root_session_id: orNull(input.session.root_session_id),
    },
    messages,
    toolCalls,
    sourceInstances,
    rowProvenance,
    fileEdits,
    usage,
    diagnostics: input.diagnostics.map((d) =>
      d.sessionId === undefined ? d : { ...d, sessionId: seal.sealId(d.sessionId) },
    ),
  };
}

export async function redactSession(
  input: NormalizedSession,
  settings: RedactionSettings,
  counts: RedactionCounts,
): Promise<NormalizedSession> {
  const sealed = settings.seal === null ? input : sealSession(input, settings.seal);
  const batch = new TextBatch();
  const text = (value: string | null): number | null => (value === null ? null : batch.text(value));
  const json = (value: string | null): number | null => (value === null ? null : batch.json(value));
  const paths = (value: string | null): number | null => (settings.homePaths ? text(value) : null);
  const { view_digest: _old, ...session } = sealed.session;
  const sessionSlots = {
    title: text(session.title),
    extensions: json(session.extensions),
    workspace_path: paths(session.workspace_path),
  };
  const messageSlots = sealed.messages.map((row) => ({
    content: batch.text(row.content),
    thinking: text(row.thinking),
    extensions: json(row.extensions),
  }));
  const toolSlots = sealed.toolCalls.map((row) => ({
    params: json(row.params),
    result: text(row.result),
    error: text(row.error),
    files: batch.json(row.files),
    extensions: json(row.extensions),
  }));
  const instanceSlots = sealed.sourceInstances.map((row) => ({ workspace_path: paths(row.workspace_path) }));
  const editSlots = sealed.fileEdits.map((row) => ({
    path: paths(row.path),
    workspace_path: paths(row.workspace_path),
    diff: text(row.diff),
    old_text: text(row.old_text),
    new_text: text(row.new_text),
    extensions: json(row.extensions),
  }));
  const out = await batch.redact(settings, counts);
  /** Each row with every column it added to the batch replaced by that slot's redacted value. */
  const redacted = <R extends object, K extends keyof R>(
    rows: readonly R[],
    slots: readonly Record<K, number | null>[],
  ): R[] =>
    rows.map((row, i) => {
      const copy = { ...row };
      for (const [column, slot] of Object.entries<number | null>(slots[i]!))
        if (slot !== null) (copy as Record<string, unknown>)[column] = out[slot]!;
      return copy;
    });
  const redactedSession = redacted([session], [sessionSlots])[0]!;
  const messages = redacted(sealed.messages, messageSlots);
  const toolCalls = redacted(sealed.toolCalls, toolSlots);
  const sourceInstances = redacted(sealed.sourceInstances, instanceSlots);
  const fileEdits = redacted(sealed.fileEdits, editSlots);
  const view_digest = computeViewDigest({
    session: redactedSession,
    messages,
    toolCalls,
    sourceInstances,
    usage: sealed.usage,
  });
  return {
    ...sealed,
    session: { ...redactedSession, view_digest },
    messages,
    toolCalls,
    sourceInstances,
    fileEdits,
  };
}

/** Redacts one session and counts what it replaced (a resolve worker sends both back). */
export async function redactCounted(
  input: NormalizedSession,
  settings: RedactionSettings,
): Promise<{ session: NormalizedSession; counts: RedactionCounts }> {
  const counts: RedactionCounts = {};
  return { session: await redactSession(input, settings, counts), counts };
}

function total(counts: RedactionCounts): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

/** Totals the counts of a run's redacted sessions and reports them as one diagnostic. */
export class RunRedaction {
  private readonly counts: RedactionCounts = {};
  private sessionsAffected = 0;

  record(counts: RedactionCounts): void {
    if (total(counts) > 0) this.sessionsAffected++;
    for (const [rule, n] of Object.entries(counts)) this.counts[rule] = (this.counts[rule] ?? 0) + n;
  }

  diagnostic(): Diagnostic {
    const redactions = total(this.counts);
    const byRule = Object.fromEntries(Object.entries(this.counts).sort(([a], [b]) => (a < b ? -1 : 1)));
    return diagnostic(
      'REDACTION_APPLIED',
      `Redaction replaced ${redactions} value(s) in ${this.sessionsAffected} session(s)`,
      { redactions, sessionsAffected: this.sessionsAffected, byRule, ruleset: RULESET_VERSION },
      { severity: 'info' },
    );
  }
}
