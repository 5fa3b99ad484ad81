import { describe, expect, it } from 'vitest';
import type { RedactionPolicy } from '../../src/shared/redaction-policy.js';
import { decideRedaction, type RedactionRequest } from '../../src/sync/redaction-gate.js';
import { IdentitySeal } from '../../src/transform/redact/identity-seal.js';
import { RULESET_VERSION } from '../../src/transform/redact/ruleset.js';

const KEY = '0f'.repeat(32);
const CHECK = new IdentitySeal(KEY).keyCheck();
const ON: RedactionPolicy = { enabled: true, ruleset: RULESET_VERSION, homePaths: false, keyCheck: CHECK };
const ask = (request: Partial<RedactionRequest> = {}): RedactionRequest => ({
  loadKey: () => KEY,
  ...request,
});

describe('the warehouse owns the redaction policy', () => {
  it('no request applies the stored policy; a plain warehouse stays plain and loads no key', () => {
    expect(decideRedaction(ON, ask())).toMatchObject({
      policy: ON,
      rewrite: false,
      job: { homePaths: false },
    });
    const plain = decideRedaction(null, {
      loadKey: () => {
        throw new Error('no key needed');
      },
    });
    expect(plain).toEqual({ policy: null, job: null, rewrite: false });
  });

  it('turning it on, a newer ruleset or adding home paths rewrites the archive first', () => {
    expect(decideRedaction(null, ask({ redact: true })).rewrite).toBe(true);
    expect(decideRedaction({ ...ON, ruleset: RULESET_VERSION - 1 }, ask()).rewrite).toBe(true);
    expect(decideRedaction(ON, ask({ homePaths: true }))).toMatchObject({
      rewrite: true,
      policy: { homePaths: true },
    });
    expect(decideRedaction({ ...ON, enabled: false, keyCheck: null }, ask({ redact: true })).rewrite).toBe(
      true,
    );
  });

  it('turning it off for a redacted warehouse is refused unless explicitly allowed', () => {
    expect(() => decideRedaction(ON, ask({ redact: false }))).toThrow(
      expect.objectContaining({ code: 'REDACTION_POLICY_DOWNGRADE', exitCode: 2 }),
    );
    expect(() => decideRedaction({ ...ON, homePaths: true }, ask({ homePaths: false }))).toThrow(
      expect.objectContaining({ code: 'REDACTION_POLICY_DOWNGRADE' }),
    );
    expect(decideRedaction(ON, ask({ redact: false, allowUnredacted: true }))).toMatchObject({
      policy: { enabled: false },
      job: null,
    });
  });

  it('fails closed on a newer ruleset and refuses another identity key', () => {
    expect(() => decideRedaction({ ...ON, ruleset: RULESET_VERSION + 1 }, ask())).toThrow(
      expect.objectContaining({ code: 'REDACTION_RULESET_NEWER', exitCode: 5 }),
    );
    expect(() => decideRedaction({ ...ON, keyCheck: 'other' }, ask())).toThrow(
      expect.objectContaining({ code: 'REDACTION_KEY_MISMATCH', exitCode: 2 }),
    );
  });
});
