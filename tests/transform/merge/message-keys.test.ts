import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../../src/transform/merge/message-keys.js';

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
