/** A Composer global contribution → SessionView (complete unless a bubble's bytes are not valid UTF-8). */
import type { ComposerGlobalContribution } from '../../extract/composer/composer-contribution.js';
import { composerSubagentInfo } from '../../extract/subagent/subagent-evidence.js';
import { readTimeField, type TimeProblem } from '../../shared/time/read-instant.js';
import { withAgentKv } from '../agentkv/agentkv-enrichment.js';
import { rowSource } from '../row-source.js';
import type { SessionView } from '../session-view.js';
import { timeDiagnostics } from '../time-diagnostics.js';
import { linkActiveBranch } from './active-branch.js';
import { bubbleToMessage } from './bubble-message.js';
import { asObject, nonEmptyString, positiveInt } from './composer-fields.js';
import { composerUsageData } from './composer-usage-data.js';
import { separateCollidingIds } from './message-id-collisions.js';

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
  const bases = data.bubbles.map((bubble, index) =>
    bubbleToMessage(bubble, index, [
      rowSource(occurrence, `composer:global:bubbleId:${occurrence.sessionId}:${bubble.keyBubbleId}`),
    ]),
  );
  const collision = separateCollidingIds(bases, {
    sessionId: occurrence.sessionId,
    sourceRef: occurrence.occurrenceRef,
  });
  const messages = linkActiveBranch(bases, activeBranchIds(doc));
  const usageData = composerUsageData(doc?.usageData, occurrence.sessionId);
  const problems: TimeProblem[] = [];
  const created = readTimeField(doc?.createdAt, 'composer.createdAt', problems);
  const updated =
    readTimeField(doc?.lastUpdatedAt, 'composer.lastUpdatedAt', problems) ??
    readTimeField(doc?.updatedAt, 'composer.updatedAt', problems);
  // Undecodable rows are damage, not content: such a view must never overwrite a complete archive.
  const partial =
    data.bubbles.some((bubble) => bubble.corruption !== null) ||
    collision !== null ||
    // SQL NULL metadata is a known complete shape (messages kept, epoch-unknown times).
    contribution.diagnostics.some(
      (d) => d.code === 'COMPOSER_DATA_UNREADABLE' && d.details.reason !== 'null-value',
    );
  const view: SessionView = {
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
    subagentEvidence: [
      ...(data.subagent ?? []),
      ...[composerSubagentInfo('composer-data', doc?.subagentInfo)].filter((e) => e !== null),
    ],
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
    diagnostics: [
      ...contribution.diagnostics,
      ...(collision === null ? [] : [collision]),
      ...timeDiagnostics(problems, occurrence.sessionId),
      ...usageData.diagnostics,
    ],
    sourceKeys: [occurrence.sourceKey],
    extensions: usageData.extensions,
    codeBlockData: doc?.codeBlockData,
    codeBlockDiffs: data.codeBlockDiffs,
    composerModes: { unifiedMode: doc?.unifiedMode, forceMode: doc?.forceMode },
  };
  return withAgentKv(view, data, occurrence);
}
