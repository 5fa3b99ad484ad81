/** A Composer global contribution → SessionView (complete unless the read was cut short). */
import type { ComposerGlobalContribution } from '../../extract/composer/composer-contribution.js';
import type { SessionView, ViewMessage } from '../session-view.js';
import { bubbleToMessage } from './bubble-message.js';
import { asObject, epochMs, nonEmptyString, positiveInt } from './composer-fields.js';

function activeBranchIds(composerData: Record<string, unknown> | null): Set<string> | null {
  const headers = composerData?.fullConversationHeadersOnly;
  if (!Array.isArray(headers) || headers.length === 0) return null;
  const ids = headers
    .map((header) => nonEmptyString(asObject(header)?.bubbleId))
    .filter((id): id is string => id !== null);
  return new Set(ids);
}

export function composerGlobalView(contribution: ComposerGlobalContribution): SessionView {
  const { data, occurrence } = contribution;
  const doc = data.composerData;
  const branch = activeBranchIds(doc);
  let previousOnBranch: string | null = null;
  const messages: ViewMessage[] = data.bubbles.map((bubble, index) => {
    const base = bubbleToMessage(bubble, index);
    const onActiveBranch = branch === null ? true : branch.has(base.messageId);
    const message: ViewMessage = {
      ...base,
      onActiveBranch,
      parentMessageId: onActiveBranch ? previousOnBranch : null,
    };
    if (onActiveBranch) previousOnBranch = message.messageId;
    return message;
  });
  const created = epochMs(doc?.createdAt);
  const updated = epochMs(doc?.lastUpdatedAt) ?? epochMs(doc?.updatedAt);
  const partial = data.truncated;
  return {
    sessionId: occurrence.sessionId,
    title: nonEmptyString(doc?.name) ?? nonEmptyString(doc?.title),
    workspacePath: occurrence.workspacePath,
    resolvedSource: 'composer',
    preferredSource: null,
    fidelity: partial ? 'partial' : 'complete',
    resolutionState: partial ? 'partial' : 'complete',
    reasonCodes: partial ? ['source-partial'] : [],
    createdAt: created === null ? null : { ms: created, source: 'composer-metadata' },
    updatedAt: updated === null ? null : { ms: updated, source: 'composer-metadata' },
    transcriptState: null,
    contextTokensUsed: positiveInt(doc?.contextTokensUsed),
    contextTokenLimit: positiveInt(doc?.contextTokenLimit),
    parentSessionId: null,
    messages,
    instances: [
      {
        sourceRole: 'composer',
        representation: 'composer-global',
        state: 'contributed',
        occurrenceRef: occurrence.occurrenceRef,
        carrier: occurrence.carrier,
        workspacePath: occurrence.workspacePath,
        reasonCode: partial ? 'source-partial' : null,
      },
    ],
    diagnostics: contribution.diagnostics,
    sourceKeys: [occurrence.sourceKey],
    extensions: null,
  };
}
