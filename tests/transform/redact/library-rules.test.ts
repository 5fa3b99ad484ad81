import { describe, expect, it } from 'vitest';
import {
  LIBRARY_RULES,
  libraryRuleSpans,
  RULE_KEYWORDS,
} from '../../../src/transform/redact/library-rules.js';

describe("secretlint's recommended preset, run in-process", () => {
  it('every rule used has keywords for the prefilter (a preset upgrade adding a rule fails here), the comment filter is left out', () => {
    expect([...LIBRARY_RULES].sort()).toEqual(Object.keys(RULE_KEYWORDS).sort());
    expect(LIBRARY_RULES).not.toContain('filter-comments');
  });

  it('many texts in one scan: spans map back to their own text and never run into the next one', async () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(3)}a1B2c3`;
    const texts = ['nothing here', `x ${token}`, 'postgres://app:S3cretPass@db/main', 'plain again'];
    const spans = await libraryRuleSpans(texts);
    expect(spans[0]).toEqual([]);
    expect(spans[1]).toEqual([{ start: 2, end: 2 + token.length, rule: 'github' }]);
    expect(spans[2]).toEqual([{ start: 15, end: 25, rule: 'database-connection-string' }]);
    expect(spans[3]).toEqual([]);
  });
});
