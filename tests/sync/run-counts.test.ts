/** Run counts agree with the stored rows: every session met as ambiguous counts, whatever its action. */
import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../../src/load/target.js';
import { emptyCounts, tally } from '../../src/sync/run-counts.js';

describe('tally', () => {
  it('counts an ambiguous view inserted, unchanged, kept or set aside against a capture', () => {
    const results: LoadResult[] = [
      { sessionId: 'new', action: 'insert', ambiguous: true },
      { sessionId: 'same', action: 'unchanged', ambiguous: true },
      { sessionId: 'archived', action: 'keep-ambiguous' },
      {
        sessionId: 'captured',
        action: 'keep-cursor-data',
        ambiguous: true,
        setAside: { representations: ['cli-stream-json'], fidelity: 'complete' },
      },
      { sessionId: 'plain', action: 'insert' },
    ];
    const counts = emptyCounts();
    tally(counts, results);
    expect(counts).toMatchObject({
      sessionsAmbiguous: 4,
      sessionsInserted: 2,
      sessionsUnchanged: 1,
      sessionsKeptComplete: 1,
    });
  });
});
