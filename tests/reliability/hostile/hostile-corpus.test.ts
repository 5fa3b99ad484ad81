import { describe, expect, it } from 'vitest';
import { countsPerKind, hostileCorpus } from '../../../fixtures/hostile/hostile-corpus.js';

describe('the generated hostile corpus', () => {
  const corpus = hostileCorpus();

  it('has at least 100 distinct bad inputs, and cases for every source kind', () => {
    const names = new Set(corpus.map((c) => c.name));
    expect(names.size).toBe(corpus.length);
    expect(corpus.length).toBeGreaterThanOrEqual(100);
    const counts = countsPerKind(corpus);
    console.log(`hostile inputs per source kind: ${JSON.stringify(counts)} (total ${corpus.length})`);
    for (const kind of ['composer-global-db', 'store-db', 'store-transcript', 'backup-zip']) {
      expect({ kind, present: (counts[kind] ?? 0) > 0 }).toEqual({ kind, present: true });
    }
    expect(Object.keys(counts).some((kind) => kind.startsWith('capture-'))).toBe(true);
  });
});
