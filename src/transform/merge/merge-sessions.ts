/**
 * The Composer/Store merge of one session ID (cursor-formats §2.8): aligned once, rendered in pair
 * order, Composer identity kept for matches, Store-only messages inserted once with collision-safe
 * IDs, parents rebuilt. `preferred` picks scalar winners only.
 */

import type { RowSource, SessionView, ViewMessage, ViewToolCall } from '../session-view.js';
import { claimId } from '../store/store-identity.js';
import { alignMessages } from './align-messages.js';
import { mergeToolCalls } from './merge-tool-calls.js';
import { hasRealContent } from './message-keys.js';

export type Preferred = 'composer' | 'store';

/** A message's calls with their sources spelled out (a call without its own is read with its message). */
function sourcedCalls(message: ViewMessage): ViewToolCall[] {
  return message.toolCalls.map((call) =>
    call.sources !== undefined && call.sources.length > 0 ? call : { ...call, sources: message.sources },
  );
}

/** Both sides' records; a side is chosen where the merged content is its content. */
function pairSources(composer: ViewMessage, store: ViewMessage, content: string): RowSource[] {
  const mark = (sources: readonly RowSource[], chosen: boolean): RowSource[] =>
    sources.map((source) => ({ ...source, chosen: source.chosen && chosen }));
  return [
    ...mark(composer.sources, content === composer.content),
    ...mark(store.sources, content === store.content),
  ];
}

function mergePair(composer: ViewMessage, store: ViewMessage, preferred: Preferred): ViewMessage {
  const storeWins = preferred === 'store' && hasRealContent(store);
  const content = !hasRealContent(composer)
    ? hasRealContent(store)
      ? store.content
      : composer.content
    : storeWins
      ? store.content
      : composer.content;
  const filled = content !== composer.content || hasRealContent(composer);
  return {
    ...composer,
    content,
    isCorrupted: composer.isCorrupted && !filled,
    thinking:
      preferred === 'store' ? (store.thinking ?? composer.thinking) : (composer.thinking ?? store.thinking),
    model: composer.model ?? store.model,
    inputTokens: composer.inputTokens ?? store.inputTokens,
    outputTokens: composer.outputTokens ?? store.outputTokens,
    durationMs: composer.durationMs ?? store.durationMs,
    origin: 'both',
    toolCalls: mergeToolCalls(sourcedCalls(composer), sourcedCalls(store)),
    sources: pairSources(composer, store, content),
  };
}

function ordered(
  composer: readonly ViewMessage[],
  store: readonly ViewMessage[],
  preferred: Preferred,
): ViewMessage[] {
  const pairs = alignMessages(composer, store);
  const taken = new Set(composer.map((m) => m.messageId));
  const storeIds = new Map<string, string>();
  const storeOnly = (m: ViewMessage): ViewMessage => {
    const messageId = claimId(m.messageId, taken);
    storeIds.set(m.messageId, messageId);
    return { ...m, messageId };
  };
  const out: ViewMessage[] = [];
  let ci = 0;
  let si = 0;
  for (const pair of pairs) {
    while (ci < pair.composer) out.push(composer[ci++]!);
    while (si < pair.store) out.push(storeOnly(store[si++]!));
    storeIds.set(store[pair.store]!.messageId, composer[pair.composer]!.messageId);
    out.push(mergePair(composer[ci++]!, store[si++]!, preferred));
  }
  while (ci < composer.length) out.push(composer[ci++]!);
  while (si < store.length) out.push(storeOnly(store[si++]!));
  return rebuildParents(out, storeIds);
}

/** Active-branch parents follow the merged order; sidechain parents map to resolved IDs. */
function rebuildParents(
  messages: readonly ViewMessage[],
  storeIds: ReadonlyMap<string, string>,
): ViewMessage[] {
  let previous: string | null = null;
  return messages.map((m) => {
    if (m.isSidechain)
      return {
        ...m,
        onActiveBranch: false,
        parentMessageId: m.parentMessageId === null ? null : (storeIds.get(m.parentMessageId) ?? null),
      };
    if (!m.onActiveBranch) return m;
    const linked = { ...m, parentMessageId: previous };
    previous = m.messageId;
    return linked;
  });
}

function hasDirectTime(view: SessionView): boolean {
  return view.messages.some((m) => m.time.kind === 'direct');
}

export function mergeSessions(composer: SessionView, store: SessionView, preferred: Preferred): SessionView {
  const instances = [...composer.instances, ...store.instances];
  const base = {
    ...composer,
    preferredSource: preferred,
    instances,
    reasonCodes: [...new Set([...composer.reasonCodes, ...store.reasonCodes])],
    diagnostics: [...composer.diagnostics, ...store.diagnostics],
    sourceKeys: [...composer.sourceKeys, ...store.sourceKeys],
    transcriptState: store.transcriptState,
    parentSessionId: composer.parentSessionId ?? store.parentSessionId,
    subagentEvidence: [...(composer.subagentEvidence ?? []), ...(store.subagentEvidence ?? [])],
    storeLastUsedModel: store.storeLastUsedModel ?? null,
  };
  if (composer.resolutionState === 'ambiguous' || store.resolutionState === 'ambiguous')
    return {
      ...base,
      resolvedSource: 'merged',
      fidelity: 'partial',
      resolutionState: 'ambiguous',
      messages: [],
    };
  const complete = composer.fidelity === 'complete' && store.fidelity === 'complete';
  const [winner, other] = preferred === 'store' ? [store, composer] : [composer, store];
  return {
    ...base,
    title: winner.title ?? other.title,
    workspacePath: composer.workspacePath ?? store.workspacePath,
    resolvedSource: 'merged',
    fidelity: complete ? 'complete' : 'partial',
    resolutionState: complete ? 'complete' : 'partial',
    // Composer metadata, else direct Composer message times (derived later), else Store metadata.
    createdAt: composer.createdAt ?? (hasDirectTime(composer) ? null : store.createdAt),
    updatedAt: composer.updatedAt ?? (hasDirectTime(composer) ? null : store.updatedAt),
    messages: ordered(composer.messages, store.messages, preferred),
  };
}
