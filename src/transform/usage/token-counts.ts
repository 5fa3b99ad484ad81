/**
 * Reads a usage object's token counts (camelCase or snake_case members). Every count is hostile: a
 * wrong type or a negative/unsafe number is unknown (NULL) and named in `invalid`. A record whose
 * counts are all zero records nothing, so its zeros are NULL.
 */
import { asObject } from '../composer/composer-fields.js';

export interface TokenCounts {
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  reasoning: number | null;
}

const FIELDS: Record<keyof TokenCounts, readonly string[]> = {
  input: ['inputTokens', 'input_tokens'],
  output: ['outputTokens', 'output_tokens'],
  cacheRead: ['cacheReadTokens', 'cache_read_tokens', 'cacheReadInputTokens', 'cache_read_input_tokens'],
  cacheWrite: [
    'cacheWriteTokens',
    'cache_write_tokens',
    'cacheCreationTokens',
    'cacheCreationInputTokens',
    'cache_creation_input_tokens',
  ],
  reasoning: ['reasoningTokens', 'reasoning_tokens'],
};

export const NO_TOKENS: TokenCounts = Object.freeze({
  input: null,
  output: null,
  cacheRead: null,
  cacheWrite: null,
  reasoning: null,
});

export function hasTokens(counts: TokenCounts): boolean {
  return Object.values(counts).some((value) => value !== null);
}

/** `invalid` receives the member names whose values were rejected. */
export function readTokenCounts(raw: unknown, invalid: string[]): TokenCounts {
  const object = asObject(raw);
  if (object === null) {
    if (raw !== undefined && raw !== null) invalid.push('usage');
    return NO_TOKENS;
  }
  const counts: TokenCounts = { ...NO_TOKENS };
  for (const key of Object.keys(FIELDS) as (keyof TokenCounts)[]) {
    const member = FIELDS[key].find((name) => object[name] !== undefined && object[name] !== null);
    if (member === undefined) continue;
    const value = object[member];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) counts[key] = value;
    else invalid.push(member);
  }
  return Object.values(counts).every((value) => value === null || value === 0) ? NO_TOKENS : counts;
}
