/**
 * Same-role replicas of one session (representation-independent): equivalent views reconcile to
 * one row whose other instances are `equivalent-replica`; divergent views give one explicit
 * ambiguity row with no messages and a diagnostic. Never picks or unions silently.
 */
import { diagnostic } from '../../shared/diagnostic.js';
import { canonicalHash } from '../canonical-json.js';
import type { SessionView, ViewMessage } from '../session-view.js';

/** What must agree for two replicas to be equivalent: the conversation, not where it was found. */
function conversationKey(messages: readonly ViewMessage[]): string {
  return canonicalHash(
    messages.map((m) => ({
      id: m.messageId,
      role: m.role,
      content: m.content,
      thinking: m.thinking,
      parent: m.parentMessageId,
      sidechain: m.isSidechain,
      tools: m.toolCalls.map((t) => ({
        id: t.toolId,
        name: t.name,
        params: t.params,
        result: t.result,
        error: t.error,
      })),
    })),
  );
}

function byOccurrence(a: SessionView, b: SessionView): number {
  const x = a.instances[0]?.occurrenceRef ?? '';
  const y = b.instances[0]?.occurrenceRef ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

export function reconcileReplicas(views: readonly SessionView[]): SessionView {
  const sorted = [...views].sort(byOccurrence);
  const [first, ...rest] = sorted;
  if (!first) throw new Error('reconcileReplicas needs at least one view');
  if (rest.length === 0) return first;
  const key = conversationKey(first.messages);
  const divergent = rest.some((view) => conversationKey(view.messages) !== key);
  const instances = sorted.flatMap((view) => view.instances);
  const refs = sorted.map((view) => view.instances[0]?.occurrenceRef ?? null);
  if (!divergent) {
    const replicaRefs = new Set(rest.map((view) => view.instances[0]?.occurrenceRef));
    return {
      ...first,
      instances: instances.map((i) =>
        replicaRefs.has(i.occurrenceRef) ? { ...i, state: 'equivalent-replica' } : i,
      ),
      diagnostics: sorted.flatMap((view) => view.diagnostics),
      sourceKeys: sorted.flatMap((view) => view.sourceKeys),
    };
  }
  return {
    ...first,
    fidelity: 'partial',
    resolutionState: 'ambiguous',
    reasonCodes: ['divergent-replicas'],
    messages: [],
    instances: instances.map((i) => ({ ...i, reasonCode: 'divergent-replica' })),
    diagnostics: [
      ...sorted.flatMap((view) => view.diagnostics),
      diagnostic(
        'REPLICAS_DIVERGENT',
        'Same-role replicas of a session disagree; none is picked or unioned',
        { occurrenceRefs: refs, representation: first.instances[0]?.representation ?? null },
        { sessionId: first.sessionId, severity: 'error' },
      ),
    ],
    sourceKeys: sorted.flatMap((view) => view.sourceKeys),
  };
}
