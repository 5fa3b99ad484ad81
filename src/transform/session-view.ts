/**
 * The resolved, representation-independent view of one logical session, before finalization into
 * warehouse rows. Representation transforms (Composer, Store, captures) and the resolver (replicas,
 * merge) produce it; `finalize-session` turns it into rows with timestamps, keys and the digest.
 */
import type {
  IDENTITY_ORIGINS,
  INSTANCE_STATES,
  MESSAGE_ORIGINS,
  MESSAGE_TIME_SOURCES,
  RESOLVED_SOURCES,
  SESSION_TIME_SOURCES,
} from '../../schemas/tables.js';
import type { Carrier, Representation } from '../extract/source-adapter.js';
import type { SubagentEvidence } from '../extract/subagent/subagent-evidence.js';
import type { Diagnostic } from '../shared/diagnostic.js';
import type { TimeProblem } from '../shared/time/read-instant.js';

export type ResolvedSource = (typeof RESOLVED_SOURCES)[number];
export type IdentityOrigin = (typeof IDENTITY_ORIGINS)[number];
export type MessageOrigin = (typeof MESSAGE_ORIGINS)[number];
export type MessageTimeSource = (typeof MESSAGE_TIME_SOURCES)[number];
export type SessionTimeSource = (typeof SESSION_TIME_SOURCES)[number];
export type InstanceState = (typeof INSTANCE_STATES)[number];

/**
 * One source record a message or tool call was read from (`row_provenance`): the contributing
 * instance by its representation and occurrence reference, and the record inside it.
 */
export interface RowSource {
  representation: Representation;
  occurrenceRef: string;
  /** The record inside its source; never a physical path (docs/provenance.md). */
  locator: string;
  /** Zero-based JSONL delivery frame, null for non-JSONL sources. */
  frameIndex: number | null;
  /** The frame the content came from, when it differs from the delivery frame. */
  sourceFrameIndex: number | null;
  /** True when this source's content is what the row holds. */
  chosen: boolean;
}

export interface ViewToolCall {
  /** Final tool identity (native or `tool:v1:…`). */
  toolId: string;
  toolIdOrigin: 'source-native' | 'tool-v1';
  /** The call ID the source stored (Store `toolCallId`, Composer `toolFormerData.toolCallId`, capture `call_id`). */
  nativeCallId: string | null;
  name: string;
  status: string;
  params: unknown;
  result: string | null;
  error: string | null;
  files: string[];
  userDecision: string | null;
  extensions: Record<string, unknown> | null;
  /** Where the call was read; empty means the owning message's sources. */
  sources?: RowSource[];
}

/**
 * A message time as the source stored it; inference happens once, in finalization. `problems`
 * names the time fields whose values were rejected (reported by finalization).
 */
export type DirectTime = (
  | {
      kind: 'direct';
      ms: number;
      source: 'composer-created-at' | 'composer-timing' | 'store-turn-timing' | 'capture-event';
    }
  /** A legacy non-null time whose origin cannot be proved: kept as `unknown`, never used to infer. */
  | { kind: 'unproven'; ms: number }
  /** No time: inferred from neighbours when `inferable`, else the session fallback. */
  | { kind: 'missing'; inferable: boolean }
) & { problems?: readonly TimeProblem[] };

export interface ViewMessage {
  messageId: string;
  identityOrigin: IdentityOrigin;
  role: 'user' | 'assistant';
  content: string;
  thinking: string | null;
  model: string | null;
  time: DirectTime;
  parentMessageId: string | null;
  onActiveBranch: boolean;
  isSidechain: boolean;
  isCorrupted: boolean;
  inputTokens: number | null;
  outputTokens: number | null;
  durationMs: number | null;
  origin: MessageOrigin;
  toolCalls: ViewToolCall[];
  extensions: Record<string, unknown> | null;
  /** Every source record the message was read from (at least one chosen). */
  sources: RowSource[];
}

export interface ViewSourceInstance {
  sourceRole: 'composer' | 'store' | 'cli' | 'cloud' | 'markdown';
  representation: Representation;
  state: InstanceState;
  occurrenceRef: string;
  carrier: Carrier;
  workspacePath: string | null;
  reasonCode: string | null;
}

export interface SessionTime {
  ms: number;
  source: SessionTimeSource;
}

export interface SessionView {
  sessionId: string;
  title: string | null;
  workspacePath: string | null;
  resolvedSource: ResolvedSource;
  preferredSource: 'composer' | 'store' | null;
  fidelity: 'complete' | 'partial';
  resolutionState: 'complete' | 'partial' | 'ambiguous';
  reasonCodes: string[];
  /** Session times from source metadata, or null to derive them from direct message times. */
  createdAt: SessionTime | null;
  updatedAt: SessionTime | null;
  transcriptState: string | null;
  contextTokensUsed: number | null;
  contextTokenLimit: number | null;
  /** The parent a subagent transcript's location names (kept for views that know only that). */
  parentSessionId: string | null;
  /** Every source's subagent link facts; `finalize-session` resolves them by source precedence. */
  subagentEvidence?: SubagentEvidence[];
  messages: ViewMessage[];
  instances: ViewSourceInstance[];
  diagnostics: Diagnostic[];
  /** Source keys whose data this view depends on (for the sync ledger). */
  sourceKeys: string[];
  extensions: Record<string, unknown> | null;
  /** Composer `codeBlockData` as stored: read into `file_edits` only, never digested. */
  codeBlockData?: unknown;
  /** Parsed `codeBlockDiff` values by diff ID: line counts of `codeBlockData` entries only. */
  codeBlockDiffs?: ReadonlyMap<string, unknown>;
  /** Composer `unifiedMode` and `forceMode` as stored (composerData or index head): read into `usage.mode` only. */
  composerModes?: { unifiedMode: unknown; forceMode: unknown };
  /** Store meta `lastUsedModel` (null when absent; `invalid` when not a string): read into `usage` only. */
  storeLastUsedModel?: { value: string | null; invalid: boolean } | null;
}

type OptionalMessageFacts =
  | 'thinking'
  | 'model'
  | 'parentMessageId'
  | 'onActiveBranch'
  | 'isSidechain'
  | 'isCorrupted'
  | 'inputTokens'
  | 'outputTokens'
  | 'durationMs'
  | 'toolCalls'
  | 'extensions'
  | 'sources';

/** The message facts a source did not store, at their empty values (a fresh object per call). */
export function absentMessageFacts(): Pick<ViewMessage, OptionalMessageFacts> {
  return {
    thinking: null,
    model: null,
    parentMessageId: null,
    onActiveBranch: true,
    isSidechain: false,
    isCorrupted: false,
    inputTokens: null,
    outputTokens: null,
    durationMs: null,
    toolCalls: [],
    extensions: null,
    sources: [],
  };
}

/**
 * A message with its branch facts set. Named fields, not `{ ...base, … }`: V8 grows a spread copy
 * member by member, about 4 KB of garbage per message on the full-load path.
 */
export function linkedMessage(
  base: Omit<ViewMessage, 'parentMessageId' | 'onActiveBranch'>,
  onActiveBranch: boolean,
  parentMessageId: string | null,
): ViewMessage {
  return {
    messageId: base.messageId,
    identityOrigin: base.identityOrigin,
    role: base.role,
    content: base.content,
    thinking: base.thinking,
    model: base.model,
    time: base.time,
    parentMessageId,
    onActiveBranch,
    isSidechain: base.isSidechain,
    isCorrupted: base.isCorrupted,
    inputTokens: base.inputTokens,
    outputTokens: base.outputTokens,
    durationMs: base.durationMs,
    origin: base.origin,
    toolCalls: base.toolCalls,
    extensions: base.extensions,
    sources: base.sources,
  };
}
