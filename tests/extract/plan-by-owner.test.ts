import { describe, expect, it } from 'vitest';
import { planByOwner } from '../../src/extract/plan-by-owner.js';
import type { SessionOccurrence, SourceAdapter } from '../../src/extract/source-adapter.js';

function reader(planned: string[][] | null): SourceAdapter {
  const adapter = { name: 'r' } as SourceAdapter;
  if (planned !== null)
    adapter.planHydration = (occurrences) => planned.push(occurrences.map((o) => o.sessionId));
  return adapter;
}

const occurrence = (sourceKey: string, sessionId: string) => ({ sourceKey, sessionId }) as SessionOccurrence;

describe('planByOwner', () => {
  it('hands each owning reader its own occurrences once, in the plan order', () => {
    const a: string[][] = [];
    const b: string[][] = [];
    const owners = new Map([
      ['ka', reader(a)],
      ['kb', reader(b)],
      ['kc', reader(null)],
    ]);
    const plan = [occurrence('ka', '1'), occurrence('kb', '2'), occurrence('kc', '3'), occurrence('ka', '4')];
    planByOwner([...plan, occurrence('unknown', '5')], (key) => owners.get(key));
    expect(a).toEqual([['1', '4']]);
    expect(b).toEqual([['2']]);
  });
});
