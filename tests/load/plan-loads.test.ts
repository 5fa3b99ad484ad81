import { describe, expect, it } from 'vitest';
import { fileEditsSignature } from '../../src/load/file-edits-signature.js';
import { planLoads } from '../../src/load/plan-loads.js';
import type { ArchivedState } from '../../src/load/replace-decision.js';
import type { NormalizedSession } from '../../src/transform/normalized-session.js';

function session(id: string, digest: string, edits: number, added: number | null = null): NormalizedSession {
  return {
    session: { session_id: id, view_digest: digest, fidelity: 'complete', resolution_state: 'complete' },
    messages: [],
    toolCalls: [],
    sourceInstances: [],
    rowProvenance: [],
    fileEdits: Array.from({ length: edits }, (_, i) => ({
      session_id: id,
      message_id: 'm',
      edit_ordinal: i,
      lines_added: added,
      lines_removed: null,
    })),
    diagnostics: [],
    sourceKeys: [],
  } as unknown as NormalizedSession;
}

/** `edits`: the archived `file_edits` rows, signed as the target signs them; none when it cannot. */
const archived = (digest: string, edits?: NormalizedSession['fileEdits']): ArchivedState => ({
  viewDigest: digest,
  fidelity: 'complete',
  ...(edits === undefined ? {} : { fileEdits: fileEditsSignature(edits) }),
});
const editsOf = (...args: Parameters<typeof session>) => session(...args).fileEdits;

describe('planLoads: file_edits of unchanged sessions', () => {
  it('refreshes only unchanged sessions whose archived edit count differs, when the target counts', () => {
    const incoming = [
      session('a', 'd1', 2),
      session('b', 'd2', 2),
      session('c', 'd3', 1),
      session('d', 'new', 1),
    ];
    const plan = planLoads(
      incoming,
      new Map([
        ['a', archived('d1', [])],
        ['b', archived('d2', editsOf('b', 'd2', 2))],
        ['c', archived('d3')],
        ['d', archived('old', [])],
      ]),
    );
    expect(plan.results.map((r) => r.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'replace']);
    expect(plan.editsRefreshed.map((s) => s.session.session_id)).toEqual(['a']);
    expect(plan.writes.map((s) => s.session.session_id)).toEqual(['d']);
  });

  it('refreshes an unchanged session whose edits kept their number but not their line counts (a changed codeBlockDiff row)', () => {
    const plan = planLoads(
      [session('a', 'd1', 2, 3), session('b', 'd2', 2, 3)],
      new Map([
        ['a', archived('d1', editsOf('a', 'd1', 2, 2))],
        ['b', archived('d2', editsOf('b', 'd2', 2, 3))],
      ]),
    );
    expect(plan.editsRefreshed.map((s) => s.session.session_id)).toEqual(['a']);
  });
});
