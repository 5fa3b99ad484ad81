/**
 * A Composer workspace-index contribution → a partial (`workspace-fallback`) SessionView: real
 * messages from an inline `conversation` or a legacy chat tab, placeholders for a `head` entry.
 */
import type {
  ComposerWorkspaceContribution,
  RawBubble,
} from '../../extract/composer/composer-contribution.js';
import { readTimeField, type TimeProblem } from '../../shared/time/read-instant.js';
import { rowSource } from '../row-source.js';
import type { SessionView } from '../session-view.js';
import { timeDiagnostics } from '../time-diagnostics.js';
import { linkActiveBranch } from './active-branch.js';
import { bubbleToMessage } from './bubble-message.js';
import { asObject, type JsonObject, nonEmptyString } from './composer-fields.js';
import { indexPlaceholders } from './index-placeholders.js';
import { legacyChatMessage } from './legacy-chat-message.js';
import { separateCollidingIds } from './message-id-collisions.js';

function inlineBubble(value: unknown, index: number): RawBubble {
  const object = asObject(value);
  return {
    rowid: index,
    keyBubbleId: '',
    value: object,
    corruption: object === null ? 'not-an-object' : null,
  };
}

function entryMessages(
  kind: ComposerWorkspaceContribution['data']['entryKind'],
  entry: JsonObject,
  generations: JsonObject[],
  problems: TimeProblem[],
) {
  if (kind === 'head') return indexPlaceholders(entry, generations, problems);
  if (kind === 'inline') {
    const conversation = Array.isArray(entry.conversation) ? entry.conversation : [];
    return conversation.map((value, index) => bubbleToMessage(inlineBubble(value, index), index, []));
  }
  const bubbles = Array.isArray(entry.bubbles)
    ? entry.bubbles
    : Array.isArray(entry.messages)
      ? entry.messages
      : [];
  return bubbles.map((value, index) => {
    const object = asObject(value);
    return object === null
      ? bubbleToMessage(inlineBubble(value, index), index, [])
      : legacyChatMessage(object, index);
  });
}

/** Builds the view; the caller only passes contributions whose entry was read (`entry !== null`). */
export function composerWorkspaceView(contribution: ComposerWorkspaceContribution): SessionView {
  const { data, occurrence } = contribution;
  const entry = data.entry ?? {};
  const problems: TimeProblem[] = [];
  const created = readTimeField(entry.createdAt, 'composer.createdAt', problems);
  const updated =
    readTimeField(entry.lastUpdatedAt, 'composer.lastUpdatedAt', problems) ??
    readTimeField(entry.updatedAt, 'composer.updatedAt', problems) ??
    readTimeField(entry.lastSendTime, 'composer.lastSendTime', problems);
  // Every message is an element of the index entry: `composerData:<id>#<index>`.
  const bases = entryMessages(data.entryKind, entry, data.generations, problems).map((base, index) => ({
    ...base,
    sources: [rowSource(occurrence, `composer:workspace:composerData:${occurrence.sessionId}#${index}`)],
  }));
  const collision = separateCollidingIds(bases, {
    sessionId: occurrence.sessionId,
    sourceRef: occurrence.occurrenceRef,
  });
  return {
    sessionId: occurrence.sessionId,
    title: nonEmptyString(entry.name) ?? nonEmptyString(entry.title) ?? nonEmptyString(entry.chatTitle),
    workspacePath: occurrence.workspacePath,
    resolvedSource: 'composer',
    preferredSource: null,
    fidelity: 'partial',
    resolutionState: 'partial',
    reasonCodes: ['source-unavailable'],
    createdAt: created === null ? null : { ms: created, source: 'composer-metadata' },
    updatedAt: updated === null ? null : { ms: updated, source: 'composer-metadata' },
    transcriptState: null,
    contextTokensUsed: null,
    contextTokenLimit: null,
    parentSessionId: null,
    messages: linkActiveBranch(bases, null),
    instances: [
      {
        sourceRole: 'composer',
        representation: 'composer-workspace',
        state: 'contributed',
        occurrenceRef: occurrence.occurrenceRef,
        carrier: occurrence.carrier,
        workspacePath: occurrence.workspacePath,
        reasonCode: null,
      },
    ],
    diagnostics: [
      ...contribution.diagnostics,
      ...(collision === null ? [] : [collision]),
      ...timeDiagnostics(problems, occurrence.sessionId),
    ],
    sourceKeys: [occurrence.sourceKey],
    extensions: { entryKind: data.entryKind },
    composerModes: { unifiedMode: entry.unifiedMode, forceMode: entry.forceMode },
  };
}
