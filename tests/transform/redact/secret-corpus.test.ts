import { describe, expect, it } from 'vitest';
import { measureCorpus } from '../../../fixtures/redaction/measure-corpus.js';
import { SECRET_FAMILY_NAMES } from '../../../fixtures/redaction/secret-corpus.js';

describe('the labelled corpus (secrets of every family and look-alikes)', () => {
  it('recall ≥ 99 % of secret samples, ≤ 1 % of look-alike samples changed, no JSON text broken', async () => {
    const figures = await measureCorpus(3, 40);
    expect(figures.secrets.map((f) => f.family)).toEqual(SECRET_FAMILY_NAMES);
    expect(figures.recall).toBeGreaterThanOrEqual(0.99);
    expect(figures.falsePositiveRate).toBeLessThanOrEqual(0.01);
    expect(figures.brokenJson).toBe(0);
    // Every family is measured for real: each one is mostly redacted.
    for (const family of figures.secrets)
      expect(family.correct / family.samples, family.family).toBeGreaterThan(0.9);
  });
});
