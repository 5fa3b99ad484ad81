import { describe, expect, it } from 'vitest';
import { sessionsTable, toolCallsTable } from '../../schemas/tables.js';
import { absentColumns, inCurrentTerms, inputSessionProblems } from '../../src/load/merge-input-check.js';
import type { StoredSession } from '../../src/load/target.js';
import { computeViewDigest } from '../../src/transform/view-digest.js';
import { sampleSessions } from '../helpers/sample-sessions.js';

const stored = async (): Promise<StoredSession> => {
  const session = (await sampleSessions())[0]!;
  return { ...session, rowProvenance: [], fileEdits: [] } as unknown as StoredSession;
};

describe('merge input checks', () => {
  it('absent columns are the ones of this build an input table lacks; unlisted tables lack none', () => {
    const present = new Map<string, Set<string>>([
      ['tool_calls', new Set(toolCallsTable.columnNames.filter((c) => c !== 'native_call_id'))],
      ['sessions', new Set(sessionsTable.columnNames)],
    ]);
    expect(absentColumns(present)).toEqual(new Map([['tool_calls', new Set(['native_call_id'])]]));
  });

  it('a digest over the stored columns passes; the same rows under a digest of other columns fail', async () => {
    const session = await stored();
    const absent = new Map([['sessions', new Set(['subagent_type'])]]);
    const { subagent_type: _lacked, ...asStored } = session.session;
    const older = computeViewDigest({ ...session, session: asStored as typeof session.session });
    expect(inputSessionProblems(session, older, absent)).toEqual([]);
    expect(inputSessionProblems(session, older, new Map())).toEqual(['digest']);
    expect(inputSessionProblems(session, session.session.view_digest, new Map())).toEqual([]);
    const forged = { ...session, messages: session.messages.slice(1) };
    expect(inputSessionProblems(forged, session.session.view_digest, new Map())).toEqual([
      'digest',
      'message-count',
    ]);
  });

  it("in this build's terms: the current digest, and file edits derived only for an input older than them", async () => {
    const session = await stored();
    const current = inCurrentTerms({ ...session, session: { ...session.session, view_digest: 'x' } }, false);
    expect(current.session.view_digest).toBe(computeViewDigest(session));
    expect(current.fileEdits).toEqual([]);
  });
});
