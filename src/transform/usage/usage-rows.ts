/**
 * The `usage` rows of a finalized session (docs/usage.md): one per message whose source recorded
 * tokens or a per-request model, then one per request-level record (CLI `result.usage`), then the
 * Store's derived session-level model. Rows take their message's time; the others the last message's.
 */
import type { MessageRow, UsageRow } from '../../../schemas/tables.js';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { asObject, nonEmptyString } from '../composer/composer-fields.js';
import type { SessionView, ViewMessage } from '../session-view.js';
import { modelOrMode } from './model-or-mode.js';
import { hasTokens, NO_TOKENS, readTokenCounts, type TokenCounts } from './token-counts.js';

type Representation = UsageRow['representation'];

interface UsageFact {
  measurement?: UsageRow['measurement'];
  messageId: string | null;
  requestId: string | null;
  storedModel: unknown;
  tokens: TokenCounts;
  representation: Representation;
  time: Pick<MessageRow, 'timestamp' | 'timestamp_source'>;
}

const COMPOSER_REPRESENTATIONS = new Set<string>(['composer-global', 'composer-workspace']);
const COMPOSER_FACTS = new Set<string>([...COMPOSER_REPRESENTATIONS, 'composer-agentkv']);

function composerRepresentation(message: ViewMessage): Representation {
  const chosen = message.sources.find((s) => s.chosen && COMPOSER_REPRESENTATIONS.has(s.representation));
  return (chosen?.representation as Representation | undefined) ?? 'composer-global';
}

function composerViewRepresentation(view: SessionView): Representation {
  const instance = view.instances.find((i) => COMPOSER_REPRESENTATIONS.has(i.representation));
  return (instance?.representation as Representation | undefined) ?? 'composer-global';
}

/** The usage fact a message carries, reporting rejected members into `invalid` by representation. */
function messageFact(
  message: ViewMessage,
  row: MessageRow,
  invalid: Map<Representation, string[]>,
): UsageFact | null {
  const problems = (representation: Representation): string[] => {
    const list = invalid.get(representation) ?? [];
    invalid.set(representation, list);
    return list;
  };
  const time = { timestamp: row.timestamp, timestamp_source: row.timestamp_source };
  const base = { messageId: message.messageId, time };
  const sdk = asObject(message.extensions?.sdk);
  if (sdk !== null) {
    const tokens = readTokenCounts(sdk.usage, problems('sdk-agent-store'));
    if (!hasTokens(tokens) && nonEmptyString(sdk.model) === null) return null;
    const requestId = nonEmptyString(sdk.requestId);
    return { ...base, requestId, storedModel: sdk.model, tokens, representation: 'sdk-agent-store' };
  }
  if (message.origin === 'cloud') {
    const tokens = readTokenCounts(message.extensions?.usage, problems('cloud-capture'));
    if (!hasTokens(tokens)) return null;
    return { ...base, requestId: null, storedModel: message.model, tokens, representation: 'cloud-capture' };
  }
  const agentKv = asObject(message.extensions?.agentKv);
  const models = Array.isArray(agentKv?.models) ? agentKv.models.filter((m) => nonEmptyString(m)) : [];
  const requestId = nonEmptyString(agentKv?.requestId);
  const tokens: TokenCounts = { ...NO_TOKENS, input: message.inputTokens, output: message.outputTokens };
  if (hasTokens(tokens) && (message.origin === 'composer' || message.origin === 'both')) {
    const storedModel = message.model ?? models.at(-1) ?? null;
    return { ...base, requestId, storedModel, tokens, representation: composerRepresentation(message) };
  }
  // A message read from agentKv alone carries its request's model on the message itself.
  const ownModel = message.origin === 'agentkv' ? message.model : null;
  if (models.length === 0 && requestId === null && ownModel === null) return null;
  return {
    ...base,
    requestId,
    storedModel: models.at(-1) ?? ownModel,
    tokens: NO_TOKENS,
    representation: 'composer-agentkv',
  };
}

/** The CLI stream's terminal `result.usage`: request-level, kept verbatim in the session extensions. */
function cliFact(view: SessionView, last: MessageRow | undefined, invalid: string[]): UsageFact | null {
  const capture = asObject(view.extensions?.capture);
  if (capture?.surface !== 'cli-stream') return null;
  const result = asObject(capture.result);
  const raw = asObject(result?.unknownFields)?.usage;
  if (raw === undefined) return null;
  const tokens = readTokenCounts(raw, invalid);
  if (!hasTokens(tokens)) return null;
  return {
    messageId: null,
    requestId: nonEmptyString(result?.request_id),
    storedModel: asObject(capture.init)?.model,
    tokens,
    representation: 'cli-stream',
    time: lastTime(last),
  };
}

function lastTime(last: MessageRow | undefined): UsageFact['time'] {
  return last
    ? { timestamp: last.timestamp, timestamp_source: last.timestamp_source }
    : { timestamp: 0, timestamp_source: 'unknown' };
}

/**
 * Store meta `lastUsedModel`: one `derived` session-level row with no counts, unless a measured row
 * already names a model or mode (the session's model would be counted twice).
 */
function storeFact(
  view: SessionView,
  measured: readonly UsageFact[],
  last: MessageRow | undefined,
): UsageFact | 'invalid' | null {
  const stored = view.storeLastUsedModel;
  if (stored === undefined || stored === null) return null;
  if (stored.invalid) return 'invalid';
  const named = modelOrMode(stored.value);
  if (named.model === null && named.mode === null) return null;
  if (
    measured.some(
      (f) => modelOrMode(f.storedModel).model !== null || modelOrMode(f.storedModel).mode !== null,
    )
  )
    return null;
  return {
    measurement: 'derived',
    messageId: null,
    requestId: null,
    storedModel: stored.value,
    tokens: NO_TOKENS,
    representation: 'store-metadata',
    time: lastTime(last),
  };
}

/**
 * The Composer session's mode as stored: the `unifiedMode` string, else `forceMode`. The first one
 * present that is not a string makes the mode unknown, named in `invalid` (an integer is not mapped).
 */
function composerMode(view: SessionView, invalid: string[]): string | null {
  const modes = view.composerModes;
  if (modes === undefined) return null;
  for (const field of ['unifiedMode', 'forceMode'] as const) {
    const value = modes[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      invalid.push(field);
      return null;
    }
    if (value.trim() !== '') return value;
  }
  return null;
}

function toRow(sessionId: string, fact: UsageFact, ordinal: number, sessionMode: string | null): UsageRow {
  const { model, mode: modelMode } = modelOrMode(fact.storedModel);
  // A stored `auto` model names how the model was chosen; otherwise a Composer row takes the session's mode.
  const mode = modelMode ?? (COMPOSER_FACTS.has(fact.representation) ? sessionMode : null);
  return {
    session_id: sessionId,
    message_id: fact.messageId,
    usage_ordinal: ordinal,
    request_id: fact.requestId,
    model,
    mode,
    input_tokens: fact.tokens.input,
    output_tokens: fact.tokens.output,
    cache_read_tokens: fact.tokens.cacheRead,
    cache_write_tokens: fact.tokens.cacheWrite,
    reasoning_tokens: fact.tokens.reasoning,
    measurement: fact.measurement ?? 'measured',
    representation: fact.representation,
    timestamp: fact.time.timestamp,
    timestamp_source: fact.time.timestamp_source,
  };
}

export function usageRows(
  view: SessionView,
  messages: readonly MessageRow[],
): { rows: UsageRow[]; diagnostics: Diagnostic[] } {
  const invalid = new Map<Representation, string[]>();
  const facts: UsageFact[] = [];
  view.messages.forEach((message, index) => {
    const fact = messageFact(message, messages[index]!, invalid);
    if (fact !== null) facts.push(fact);
  });
  const cliInvalid: string[] = [];
  const cli = cliFact(view, messages.at(-1), cliInvalid);
  if (cli !== null) facts.push(cli);
  if (cliInvalid.length > 0) invalid.set('cli-stream', cliInvalid);
  const store = storeFact(view, facts, messages.at(-1));
  if (store === 'invalid') invalid.set('store-metadata', ['lastUsedModel']);
  else if (store !== null) facts.push(store);
  const modeInvalid: string[] = [];
  const sessionMode = composerMode(view, modeInvalid);
  if (modeInvalid.length > 0) {
    const representation = composerViewRepresentation(view);
    invalid.set(representation, [...(invalid.get(representation) ?? []), ...modeInvalid]);
  }
  const diagnostics: Diagnostic[] = [];
  for (const [representation, fields] of invalid) {
    for (const field of [...new Set(fields)].sort()) {
      diagnostics.push(
        diagnostic(
          'USAGE_FIELD_INVALID',
          `A ${representation} usage field of the wrong type or range is unknown`,
          { representation, field, count: fields.filter((f) => f === field).length },
          { sessionId: view.sessionId },
        ),
      );
    }
  }
  return {
    rows: facts.map((fact, ordinal) => toRow(view.sessionId, fact, ordinal, sessionMode)),
    diagnostics,
  };
}
