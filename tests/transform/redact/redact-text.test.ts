import { describe, expect, it } from 'vitest';
import { CANARIES } from '../../../fixtures/capture/redaction-captures.js';
import { emptyCounts, redactJsonValue, redactText } from '../../../src/transform/redact/redact-text.js';

describe('redaction rules', () => {
  it('replaces every canary kind with a fixed marker and counts each by kind', () => {
    const counts = emptyCounts();
    const text = `a ${CANARIES.email} b ${CANARIES.bearer} c ${CANARIES.password} d ${CANARIES.pem} e api_key: "${CANARIES.apiKey}"`;
    const out = redactText(text, counts);
    for (const secret of [
      'canary.person@example.test',
      'sk-canary',
      'CanaryPass',
      'MIICanary',
      CANARIES.apiKey,
    ])
      expect(out).not.toContain(secret);
    expect(out).toBe(
      'a [REDACTED:email] b Bearer [REDACTED:bearer] c password=[REDACTED:secret] d [REDACTED:private-key] e api_key: "[REDACTED:secret]"',
    );
    expect(counts).toEqual({ 'private-key': 1, bearer: 1, 'secret-assignment': 2, email: 1 });
  });

  it('leaves ordinary text alone (words merely containing a secret word, counts like token_count)', () => {
    const counts = emptyCounts();
    const text = 'token_count=5, keyboard layout, Bearer of news, user at example';
    expect(redactText(text, counts)).toBe(text);
    expect(counts).toEqual(emptyCounts());
  });

  it('JSON values: strings under secret-named keys are redacted whole, structure and other keys stay', () => {
    const counts = emptyCounts();
    const value = {
      apiKey: 'abc',
      apiKeySource: 'env',
      nested: [{ db_password: 'x', note: 'mail a@b.example' }],
      n: 3,
    };
    expect(redactJsonValue(value, counts)).toEqual({
      apiKey: '[REDACTED:secret]',
      apiKeySource: 'env',
      nested: [{ db_password: '[REDACTED:secret]', note: 'mail [REDACTED:email]' }],
      n: 3,
    });
    expect(counts['secret-assignment']).toBe(2);
    expect(counts.email).toBe(1);
  });

  it('JSON values nested 100 000 deep are redacted without overflowing the stack', () => {
    const counts = emptyCounts();
    const depth = 100_000;
    const deep = JSON.parse(`${'{"token":"t1","a":['.repeat(depth)}"mail a@b.example"${']}'.repeat(depth)}`);
    const redacted = redactJsonValue(deep, counts);
    expect(counts).toEqual({ 'private-key': 0, bearer: 0, 'secret-assignment': depth, email: 1 });
    let node = redacted as { token: string; a: unknown[] };
    for (let i = 1; i < depth; i++) node = node.a[0] as typeof node;
    expect(node).toEqual({ token: '[REDACTED:secret]', a: ['mail [REDACTED:email]'] });
  });

  it('a "__proto__" key in source JSON stays a plain key', () => {
    const redacted = redactJsonValue(JSON.parse('{"__proto__":{"x":"a@b.example"}}'), emptyCounts());
    expect(Object.keys(redacted as object)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(redacted, '__proto__')?.value).toEqual({ x: '[REDACTED:email]' });
  });
});
