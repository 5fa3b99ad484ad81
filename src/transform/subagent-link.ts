/**
 * Resolves a session's subagent link columns from every source's evidence: each fact takes the value
 * of the strongest source that states one (`SUBAGENT_LINK_SOURCES` order), and every other source
 * stating a different value is reported, never silently dropped.
 */
import {
  SUBAGENT_LINK_SOURCES,
  type SubagentEvidence,
  type SubagentLinkSource,
} from '../extract/subagent/subagent-evidence.js';
import { type Diagnostic, diagnostic } from '../shared/diagnostic.js';
import type { SessionView } from './session-view.js';

export interface SubagentLink {
  parent_session_id: string | null;
  root_session_id: string | null;
  spawn_tool_call_id: string | null;
  subagent_type: string | null;
}

const FIELDS = [
  ['parent_session_id', 'parentSessionId'],
  ['root_session_id', 'rootSessionId'],
  ['spawn_tool_call_id', 'spawnToolCallId'],
  ['subagent_type', 'subagentType'],
] as const;

const LEGACY_TASK = /^task-/;

const rank = (source: SubagentLinkSource): number => SUBAGENT_LINK_SOURCES.indexOf(source);

/** The view's evidence, plus its transcript parent when only `parentSessionId` carries it. */
function evidenceOf(view: SessionView): SubagentEvidence[] {
  const found = [...(view.subagentEvidence ?? [])];
  const parent = view.parentSessionId;
  if (parent !== null && !found.some((e) => e.parentSessionId === parent))
    found.push({
      source: 'store-transcript',
      parentSessionId: parent,
      rootSessionId: null,
      spawnToolCallId: null,
      subagentType: null,
    });
  return found.sort((a, b) => rank(a.source) - rank(b.source));
}

export function resolveSubagentLink(view: SessionView): { link: SubagentLink; diagnostics: Diagnostic[] } {
  const scope = { sessionId: view.sessionId };
  const diagnostics: Diagnostic[] = [];
  const selfSources = new Set<string>();
  const evidence = evidenceOf(view).map((e) => {
    const self = e.parentSessionId === view.sessionId || e.rootSessionId === view.sessionId;
    if (!self) return e;
    selfSources.add(e.source);
    return {
      ...e,
      parentSessionId: e.parentSessionId === view.sessionId ? null : e.parentSessionId,
      rootSessionId: e.rootSessionId === view.sessionId ? null : e.rootSessionId,
    };
  });
  for (const source of selfSources)
    diagnostics.push(
      diagnostic('SUBAGENT_LINK_SELF', 'A source links the session to itself', { source }, scope),
    );
  const link: SubagentLink = {
    parent_session_id: null,
    root_session_id: null,
    spawn_tool_call_id: null,
    subagent_type: null,
  };
  for (const [column, fact] of FIELDS) {
    const stated = evidence.filter((e) => e[fact] !== null);
    const kept = stated[0];
    if (kept === undefined) continue;
    link[column] = kept[fact];
    const reported = new Set<string>();
    for (const other of stated) {
      if (other[fact] === kept[fact] || reported.has(other.source)) continue;
      reported.add(other.source);
      diagnostics.push(
        diagnostic(
          'SUBAGENT_LINK_CONFLICT',
          'Sources disagree on a subagent link; the stronger source is kept',
          { field: column, keptSource: kept.source, otherSource: other.source },
          scope,
        ),
      );
    }
  }
  // Older builds kept a Task's conversation under `task-<toolCallId>` ([P]): reported, never parsed.
  if (link.parent_session_id === null && LEGACY_TASK.test(view.sessionId))
    diagnostics.push(
      diagnostic(
        'SUBAGENT_LEGACY_TASK_SESSION',
        'A legacy sub-composer session has no parent link',
        {},
        { ...scope, severity: 'info' },
      ),
    );
  return { link, diagnostics };
}
