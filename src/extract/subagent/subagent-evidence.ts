/**
 * What one source of truth says about a session being a subagent (cursor-formats §5): its parent,
 * root, spawning tool call and type. Sources are listed strongest first; that order is the documented
 * precedence when they disagree (docs/compatibility-matrix.md).
 */

export const SUBAGENT_LINK_SOURCES = [
  'composer-headers-table',
  'composer-header-json',
  'composer-data',
  'parent-listing',
  'store-meta',
  'store-transcript',
] as const;

export type SubagentLinkSource = (typeof SUBAGENT_LINK_SOURCES)[number];

export interface SubagentEvidence {
  source: SubagentLinkSource;
  parentSessionId: string | null;
  rootSessionId: string | null;
  spawnToolCallId: string | null;
  subagentType: string | null;
}

export function evidenceText(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function object(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Evidence with at least one fact, or null: an all-empty record says nothing. */
export function evidence(
  source: SubagentLinkSource,
  facts: Omit<SubagentEvidence, 'source'>,
): SubagentEvidence | null {
  const { parentSessionId, rootSessionId, spawnToolCallId, subagentType } = facts;
  if (parentSessionId === null && rootSessionId === null && spawnToolCallId === null && subagentType === null)
    return null;
  return { source, parentSessionId, rootSessionId, spawnToolCallId, subagentType };
}

/**
 * A Composer-side `subagentInfo` object (composerData: `parentComposerId`, `rootParentConversationId`,
 * `subagentTypeName`; headers: `parentComposerId`, `toolCallId`). Any other shape says nothing.
 */
export function composerSubagentInfo(
  source: SubagentLinkSource,
  value: unknown,
  subagentType: string | null = null,
): SubagentEvidence | null {
  const info = object(value);
  return evidence(source, {
    parentSessionId: evidenceText(info?.parentComposerId),
    rootSessionId: evidenceText(info?.rootParentConversationId),
    spawnToolCallId: evidenceText(info?.toolCallId),
    subagentType: evidenceText(info?.subagentTypeName) ?? subagentType,
  });
}

/** The store.db meta `subagentInfo` (`parentAgentId`, `rootParentAgentId`, `toolCallId`, `typeName`). */
export function storeSubagentInfo(value: unknown): SubagentEvidence | null {
  const info = object(value);
  return evidence('store-meta', {
    parentSessionId: evidenceText(info?.parentAgentId),
    rootSessionId: evidenceText(info?.rootParentAgentId),
    spawnToolCallId: evidenceText(info?.toolCallId),
    subagentType: evidenceText(info?.typeName),
  });
}
