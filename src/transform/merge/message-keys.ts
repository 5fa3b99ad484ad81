/**
 * Content keys for aligning Composer and Store messages: role, normalized text and tool
 * signatures. Normalization collapses whitespace and strips a whole-message `<user_query>` wrapper;
 * blank and corrupt messages never anchor.
 */
import { canonicalJson } from '../../shared/json/canonical-json.js';
import type { ViewMessage, ViewToolCall } from '../session-view.js';

const PLACEHOLDERS = new Set(['', '[empty message]', '[corrupted message]']);
const USER_QUERY = /^<user_query>([\s\S]*)<\/user_query>$/;

// Every whitespace run becomes one space; a run that already is one space is left alone, so
// ordinary prose (a match per word with `\s+`) is not rebuilt. Same result as `/\s+/g`.
const WHITESPACE_TO_COLLAPSE = /\s{2,}|[^\S ]/g;

export function normalizeText(content: string): string {
  const collapsed = content.replace(WHITESPACE_TO_COLLAPSE, ' ').trim();
  const wrapped = USER_QUERY.exec(collapsed);
  return wrapped ? wrapped[1]!.trim() : collapsed;
}

/** The longest placeholder: longer text is real without hashing it for the set lookup. */
const PLACEHOLDER_CHARS = Math.max(...[...PLACEHOLDERS].map((p) => p.length));

export function hasRealContent(message: ViewMessage): boolean {
  if (message.isCorrupted) return false;
  const text = message.content.trim();
  return text.length > PLACEHOLDER_CHARS || !PLACEHOLDERS.has(text);
}

function paramsKey(params: unknown): string | null {
  return params === null || params === undefined ? null : canonicalJson(params);
}

function toolSignature(call: ViewToolCall): [string, string | null] {
  return [call.name, paramsKey(call.params)];
}

/**
 * The strong key, or null for a blank message (which must never anchor). The role and tool
 * signatures are JSON values, each ending where its text says, so appending the normalized text
 * unescaped keeps keys equal exactly when all three are equal, without an escaped copy of the text.
 */
export function strongKey(message: ViewMessage): string | null {
  const real = hasRealContent(message);
  if (!real && message.toolCalls.length === 0) return null;
  const head = JSON.stringify(message.role) + canonicalJson(message.toolCalls.map(toolSignature));
  return real ? head + normalizeText(message.content) : head;
}

/** Two calls of the same tool contradict each other when both carry different parameters. */
function toolsContradict(a: readonly ViewToolCall[], b: readonly ViewToolCall[]): boolean {
  return a.some((x) =>
    b.some((y) => {
      if (x.name !== y.name) return false;
      const px = paramsKey(x.params);
      const py = paramsKey(y.params);
      return px !== null && py !== null && px !== py;
    }),
  );
}

/** Compatible for gap filling: same role, no contradicting real text or same-name tool params. */
export function compatible(composer: ViewMessage, store: ViewMessage): boolean {
  if (composer.role !== store.role) return false;
  if (composer.isCorrupted !== store.isCorrupted && composer.isCorrupted) return false;
  if (
    hasRealContent(composer) &&
    hasRealContent(store) &&
    normalizeText(composer.content) !== normalizeText(store.content)
  )
    return false;
  return !toolsContradict(composer.toolCalls, store.toolCalls);
}
