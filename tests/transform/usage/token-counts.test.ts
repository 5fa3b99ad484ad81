import { describe, expect, it } from 'vitest';
import { NO_TOKENS, readTokenCounts } from '../../../src/transform/usage/token-counts.js';

describe('readTokenCounts', () => {
  it('reads camelCase and snake_case members', () => {
    const invalid: string[] = [];
    expect(
      readTokenCounts({ input_tokens: 3, outputTokens: 4, cache_read_input_tokens: 5 }, invalid),
    ).toEqual({
      input: 3,
      output: 4,
      cacheRead: 5,
      cacheWrite: null,
      reasoning: null,
    });
    expect(invalid).toEqual([]);
  });

  it('an all-zero record is "not recorded": every count NULL', () => {
    expect(readTokenCounts({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0 }, [])).toEqual(NO_TOKENS);
  });

  it('rejects wrong types, fractions, negatives and unsafe integers, naming the member', () => {
    const invalid: string[] = [];
    const counts = readTokenCounts(
      {
        inputTokens: '12',
        outputTokens: 1.5,
        cacheReadTokens: -1,
        cacheWriteTokens: 2 ** 60,
        reasoningTokens: 3,
      },
      invalid,
    );
    expect(counts).toEqual({ ...NO_TOKENS, reasoning: 3 });
    expect(invalid).toEqual(['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens']);
  });

  it('absent usage is no problem; a non-object usage is', () => {
    const invalid: string[] = [];
    expect(readTokenCounts(undefined, invalid)).toEqual(NO_TOKENS);
    expect(readTokenCounts(null, invalid)).toEqual(NO_TOKENS);
    expect(readTokenCounts([1, 2], invalid)).toEqual(NO_TOKENS);
    expect(invalid).toEqual(['usage']);
  });
});
