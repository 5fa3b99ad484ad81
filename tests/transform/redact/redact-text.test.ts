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
});
