import { describe, expect, it } from 'vitest';
import type { SessionOccurrence, SourceAdapter } from '../../src/extract/source-adapter.js';
import { groupOccurrences } from '../../src/sync/session-groups.js';

const adapter = {} as SourceAdapter;
const entry = (sessionId: string, occurrenceRef: string, enrichmentOnly = false) => ({
  adapter,
  occurrence: { sessionId, occurrenceRef, enrichmentOnly } as unknown as SessionOccurrence,
});

describe('groupOccurrences', () => {
  it('groups by byte-exact ID in code-point order, members by occurrence ref', () => {
    const groups = groupOccurrences([entry('b', 'r2'), entry('a', 'r1'), entry('b', 'r1'), entry('B', 'r3')]);
    expect(groups.map((g) => g.sessionId)).toEqual(['B', 'a', 'b']);
    expect(groups[2]!.members.map((m) => m.occurrence.occurrenceRef)).toEqual(['r1', 'r2']);
  });

  it('orders IDs with astral characters by code point, not by UTF-16 unit', () => {
    // U+1F600 sorts before U+FFFF in UTF-16 units (0xD83D) but after it by code point.
    const groups = groupOccurrences([entry('x\u{1F600}', 'r1'), entry('x\uFFFF', 'r2'), entry('a', 'r3')]);
    expect(groups.map((g) => g.sessionId)).toEqual(['a', 'x\uFFFF', 'x\u{1F600}']);
  });

  it('drops a session only enrichment sources name', () => {
    expect(groupOccurrences([entry('a', 'r1', true), entry('b', 'r2')]).map((g) => g.sessionId)).toEqual([
      'b',
    ]);
  });
});
