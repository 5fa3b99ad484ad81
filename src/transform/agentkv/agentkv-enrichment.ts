/**
 * Adds a session's agentKv facts to its Composer view, never touching a message or tool identity
 * or the Composer order: request facts on the bubble opening the request, results on the tool call
 * of the same `toolCallId`, a `composer-agentkv` instance; agentKv-only text after the bubbles.
 */

import { AGENTKV_BLOB_PREFIX } from '../../extract/agentkv/agentkv-blob.js';
import type { ComposerGlobalData } from '../../extract/composer/composer-contribution.js';
import { occurrenceRefFor } from '../../extract/fs/source-identity.js';
import type { SessionOccurrence } from '../../extract/source-adapter.js';
import { linkActiveBranch } from '../composer/active-branch.js';
import { asObject, nonEmptyString } from '../composer/composer-fields.js';
import { rowSource } from '../row-source.js';
import type { SessionView, ViewMessage } from '../session-view.js';
import { agentKvMessages } from './agentkv-messages.js';
import { encryptionKeyFlags } from './encryption-keys.js';
import { groupRequests, type RequestFacts, type RequestGroup, requestFacts } from './request-facts.js';
import { decodeSessionBlobs } from './session-blobs.js';

function bubbleField(data: ComposerGlobalData, index: number, field: string): string | null {
  return nonEmptyString(data.bubbles[index]?.value?.[field]);
}

function withExtension(message: ViewMessage, key: string, value: unknown): ViewMessage {
  return { ...message, extensions: { ...(message.extensions ?? {}), [key]: value } };
}

/** Bubble-derived messages are `data.bubbles` in order (one message per row). */
function enrich(messages: ViewMessage[], data: ComposerGlobalData, facts: readonly RequestFacts[]): number {
  const opener = new Map<string, number>();
  data.bubbles.forEach((_, i) => {
    const requestId = bubbleField(data, i, 'requestId');
    if (requestId !== null && !opener.has(requestId)) opener.set(requestId, i);
  });
  const calls = new Map(
    facts.flatMap((f) => f.toolCalls.filter((c) => c.toolCallId !== null).map((c) => [c.toolCallId!, c])),
  );
  let unmatched = 0;
  for (const fact of facts) {
    const at = fact.requestId === null ? undefined : opener.get(fact.requestId);
    if (at === undefined) {
      unmatched++;
      continue;
    }
    messages[at] = withExtension(messages[at]!, 'agentKv', fact);
    const model = fact.models.at(-1);
    for (let i = at + 1; model !== undefined && i < messages.length && messages[i]!.role === 'assistant'; i++)
      if (messages[i]!.model === null) messages[i] = { ...messages[i]!, model };
  }
  messages.forEach((message, i) => {
    const id = nonEmptyString(asObject(data.bubbles[i]?.value?.toolFormerData)?.toolCallId);
    const call = id === null ? undefined : calls.get(id);
    const tool = message.toolCalls[0];
    if (call === undefined || tool === undefined) return;
    const { toolCallId: _, toolName: __, ...facts } = call;
    messages[i] = {
      ...message,
      toolCalls: [
        { ...tool, extensions: { ...(tool.extensions ?? {}), agentKv: facts } },
        ...message.toolCalls.slice(1),
      ],
    };
  });
  return unmatched;
}

export function withAgentKv(
  view: SessionView,
  data: ComposerGlobalData,
  occurrence: SessionOccurrence,
): SessionView {
  const flags = encryptionKeyFlags(data.composerData);
  const extensions = flags === null ? view.extensions : { ...(view.extensions ?? {}), ...flags };
  const read = data.agentKv;
  if (read === undefined || read === null) return { ...view, extensions };
  const scope = { sessionId: occurrence.sessionId, sourceRef: occurrence.occurrenceRef };
  const bubbleRequestIds = new Set(
    data.bubbles.map((_, i) => bubbleField(data, i, 'requestId')).filter((id) => id !== null),
  );
  const blobs = decodeSessionBlobs(read, data.composerData, bubbleRequestIds, scope);
  if (blobs.summary.blobs === 0 && blobs.diagnostics.length === 0) return { ...view, extensions };
  const groups: RequestGroup[] = groupRequests(blobs.prompt);
  const opened = new Set(groups.map((g) => g.requestId));
  const requestOnly = blobs.requests.filter((r) => !opened.has(r.message.requestId));
  for (const r of requestOnly) groups.push({ requestId: r.message.requestId, messages: [r] });
  const instanceRef = occurrenceRefFor(occurrence.sourceKey, `agentKv:${occurrence.sessionId}`);
  const blobSource = (blobId: string) =>
    rowSource(
      {
        representation: 'composer-agentkv',
        occurrenceRef: instanceRef,
        recordPrefix: occurrence.recordPrefix,
      },
      `composer:global:${AGENTKV_BLOB_PREFIX}${blobId}`,
    );
  let messages = [...view.messages];
  let unmatchedRequests = 0;
  let loadedMessages = 0;
  const visible = messages.some((m) => !m.isCorrupted && m.content.length > 0);
  if (!visible && (blobs.prompt.length > 0 || requestOnly.length > 0)) {
    const extra = linkActiveBranch(agentKvMessages([...blobs.prompt, ...requestOnly], blobSource), null);
    const tail = messages.findLast((m) => m.onActiveBranch)?.messageId ?? null;
    if (extra[0] !== undefined) extra[0] = { ...extra[0], parentMessageId: tail };
    loadedMessages = extra.length;
    messages = [...messages, ...extra];
  } else {
    unmatchedRequests = enrich(messages, data, groups.map(requestFacts));
  }
  const contributed = blobs.summary.blobs > 0;
  return {
    ...view,
    messages,
    instances: contributed
      ? [
          ...view.instances,
          {
            sourceRole: 'composer',
            representation: 'composer-agentkv',
            state: 'contributed',
            occurrenceRef: instanceRef,
            carrier: occurrence.carrier,
            workspacePath: occurrence.workspacePath,
            reasonCode: null,
          },
        ]
      : view.instances,
    diagnostics: [...view.diagnostics, ...blobs.diagnostics],
    extensions: { ...(extensions ?? {}), agentKv: { ...blobs.summary, unmatchedRequests, loadedMessages } },
  };
}
