import { describe, expect, it } from 'vitest';
import { normalizeText, strongKey } from '../../../src/transform/merge/message-keys.js';
import type { ViewMessage, ViewToolCall } from '../../../src/transform/session-view.js';

// Every character JavaScript's `\s` matches, plus non-whitespace neighbours.
const WHITESPACE = ' \t\n\v\f\r\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
const OTHER = ['a', 'é', '日', '😀', '<', '>'];

describe('normalizeText', () => {
  it('collapses every whitespace run to one space exactly like /\\s+/g, for random mixes', () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let sample = 0; sample < 2000; sample++) {
      let text = '';
      const length = next(40);
      for (let i = 0; i < length; i++)
        text += next(2) === 0 ? WHITESPACE[next(WHITESPACE.length)]! : OTHER[next(OTHER.length)]!;
      const expected = text.replace(/\s+/g, ' ').trim();
      expect(normalizeText(text)).toBe(expected);
    }
  });

  it('leaves single spaces alone and still unwraps a whole-message <user_query>', () => {
    expect(normalizeText('one two  three\n\tfour')).toBe('one two three four');
    expect(normalizeText(' <user_query>\n  ask  me \n</user_query> ')).toBe('ask me');
  });
});

function message(
  role: 'user' | 'assistant',
  content: string,
  tools: [string, unknown][] = [],
  isCorrupted = false,
): ViewMessage {
  const toolCalls = tools.map(([name, params]) => ({ name, params }) as ViewToolCall);
  return { role, content, isCorrupted, toolCalls } as ViewMessage;
}

describe('strongKey', () => {
  it('is null for blank, placeholder and corrupt messages without tool calls', () => {
    for (const blank of ['', '  \n', '[empty message]', ' [corrupted message] '])
      expect(strongKey(message('user', blank))).toBeNull();
    expect(strongKey(message('user', 'real text', [], true))).toBeNull();
    expect(strongKey(message('user', '[empty message]', [['read', null]]))).not.toBeNull();
  });

  it('is equal exactly when role, normalized text and tool signatures are equal', () => {
    const same = [
      message('user', 'ask  me\n'),
      message('user', ' ask me'),
      message('user', '<user_query>ask me</user_query>'),
    ];
    for (const m of same) expect(strongKey(m)).toBe(strongKey(same[0]!));
    const distinct = [
      message('user', 'ask me'),
      message('assistant', 'ask me'),
      message('user', 'ask me', [['read', { path: 'a' }]]),
      message('user', 'ask me', [['read', { path: 'b' }]]),
      message('user', 'ask me', [['read', null]]),
      message('user', '[["read",null]]ask me'),
      message('user', '"user"[]ask me'),
      message('user', '', [['read', null]]),
      message('user', 'x'.repeat(30)),
    ];
    const keys = distinct.map(strongKey);
    expect(new Set(keys).size).toBe(distinct.length);
  });
});
