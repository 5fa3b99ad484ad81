import { describe, expect, it } from 'vitest';
import type { SubagentEvidence, SubagentLinkSource } from '../../src/extract/subagent/subagent-evidence.js';
import type { SessionView } from '../../src/transform/session-view.js';
import { resolveSubagentLink } from '../../src/transform/subagent-link.js';

const ID = 'child';

function ev(source: SubagentLinkSource, facts: Partial<Omit<SubagentEvidence, 'source'>>): SubagentEvidence {
  return {
    source,
    parentSessionId: null,
    rootSessionId: null,
    spawnToolCallId: null,
    subagentType: null,
    ...facts,
  };
}

const view = (evidence: SubagentEvidence[], parentSessionId: string | null = null) =>
  ({ sessionId: ID, parentSessionId, subagentEvidence: evidence }) as unknown as SessionView;

describe('subagent link resolution', () => {
  it('a top-level session has no link and no diagnostic', () => {
    expect(resolveSubagentLink(view([]))).toEqual({
      link: { parent_session_id: null, root_session_id: null, spawn_tool_call_id: null, subagent_type: null },
      diagnostics: [],
    });
  });

  it('each fact comes from the strongest source stating it, whatever the evidence order', () => {
    const { link, diagnostics } = resolveSubagentLink(
      view([
        ev('store-transcript', { parentSessionId: 'p' }),
        ev('composer-data', { parentSessionId: 'p', rootSessionId: 'r', subagentType: 'explore' }),
        ev('composer-header-json', { parentSessionId: 'p', spawnToolCallId: 'toolu_1' }),
      ]),
    );
    expect(link).toEqual({
      parent_session_id: 'p',
      root_session_id: 'r',
      spawn_tool_call_id: 'toolu_1',
      subagent_type: 'explore',
    });
    expect(diagnostics).toEqual([]);
  });

  it('disagreeing sources keep the stronger value and report each other source once per fact', () => {
    const { link, diagnostics } = resolveSubagentLink(
      view([
        ev('parent-listing', { parentSessionId: 'p1' }),
        ev('parent-listing', { parentSessionId: 'p2' }),
        ev('composer-data', { parentSessionId: 'p1', subagentType: 'shell' }),
        ev('composer-headers-table', { parentSessionId: 'p2', subagentType: 'explore' }),
      ]),
    );
    expect(link.parent_session_id).toBe('p2');
    expect(link.subagent_type).toBe('explore');
    expect(diagnostics.map((d) => [d.code, d.sessionId, d.details])).toEqual([
      [
        'SUBAGENT_LINK_CONFLICT',
        ID,
        { field: 'parent_session_id', keptSource: 'composer-headers-table', otherSource: 'composer-data' },
      ],
      [
        'SUBAGENT_LINK_CONFLICT',
        ID,
        { field: 'parent_session_id', keptSource: 'composer-headers-table', otherSource: 'parent-listing' },
      ],
      [
        'SUBAGENT_LINK_CONFLICT',
        ID,
        { field: 'subagent_type', keptSource: 'composer-headers-table', otherSource: 'composer-data' },
      ],
    ]);
  });

  it('a session named as its own parent or root is reported and the fact ignored', () => {
    const { link, diagnostics } = resolveSubagentLink(
      view([
        ev('composer-data', { parentSessionId: ID, rootSessionId: ID }),
        ev('parent-listing', { parentSessionId: 'p' }),
      ]),
    );
    expect(link).toMatchObject({ parent_session_id: 'p', root_session_id: null });
    expect(diagnostics.map((d) => [d.code, d.details])).toEqual([
      ['SUBAGENT_LINK_SELF', { source: 'composer-data' }],
    ]);
  });

  it('a legacy `task-<toolCallId>` session without a parent is reported (info), one with a parent is not', () => {
    const legacy = { ...view([]), sessionId: 'task-call_1\nfc_1' } as SessionView;
    expect(resolveSubagentLink(legacy).diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['SUBAGENT_LEGACY_TASK_SESSION', 'info'],
    ]);
    const linked = {
      ...legacy,
      subagentEvidence: [ev('composer-data', { parentSessionId: 'p' })],
    } as SessionView;
    expect(resolveSubagentLink(linked).diagnostics).toEqual([]);
    expect(resolveSubagentLink(view([])).diagnostics).toEqual([]);
  });

  it('a view that knows only its transcript parent still links through it', () => {
    expect(resolveSubagentLink(view([], 'p')).link.parent_session_id).toBe('p');
    expect(
      resolveSubagentLink({ ...view([], 'p'), subagentEvidence: undefined }).link.parent_session_id,
    ).toBe('p');
  });
});
