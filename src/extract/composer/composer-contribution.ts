/** What the Composer extractor hands to the transform stage for one session occurrence. */
import type { Diagnostic } from '../../shared/diagnostic.js';
import type { AgentKvSessionBytes } from '../agentkv/agentkv-contribution.js';
import type { Contribution } from '../source-adapter.js';
import type { SubagentEvidence } from '../subagent/subagent-evidence.js';

/** One `bubbleId:<composerId>:<bubbleId>` row, in rowid order. */
export interface RawBubble {
  rowid: number;
  /** The last `:`-segment of the row key (the bubble ID the key names). */
  keyBubbleId: string;
  /** Parsed JSON value; null when the value was SQL NULL, undecodable or not JSON. */
  value: Record<string, unknown> | null;
  /** Why `value` is null, when it is. */
  corruption:
    | 'null-value'
    | 'invalid-json'
    | 'invalid-encoding'
    | 'not-an-object'
    | 'wrong-field-type'
    | 'changed-during-read'
    | null;
}

export interface ComposerGlobalData {
  /** Parsed `composerData:<id>` document, or null when absent, NULL or invalid. */
  composerData: Record<string, unknown> | null;
  bubbles: RawBubble[];
  /** True when a read limit or encoding failure cut the read short. */
  truncated: boolean;
  /** The session's agentKv blobs, when it links any (undefined where the carrier has none). */
  agentKv?: AgentKvSessionBytes | null;
  /** Subagent evidence from the DB's headers and parents' listings (not the session's own document). */
  subagent?: SubagentEvidence[];
  /** Parsed `codeBlockDiff:<composerId>:<diffId>` values by diff ID; null when unreadable. */
  codeBlockDiffs?: Map<string, unknown>;
}

export type ComposerGlobalContribution = Contribution<'composer-global', ComposerGlobalData>;

/** A global session's rows as read, not yet decoded: plain bytes cross to a resolve worker cheaply. */
export interface ComposerGlobalBytes {
  scope: { sessionId: string; sourceRef: string };
  /** The `composerData:<id>` value; undefined when the row is absent. */
  doc: Uint8Array | null | 'changed' | undefined;
  bubbles: { rowid: number; keyBubbleId: string; bytes: Uint8Array | null | 'changed' }[];
  /** Every `codeBlockDiff:<composerId>:` row in rowid order, by the key's rest (the diff ID). */
  diffs?: { diffId: string; bytes: Uint8Array | null | 'changed' }[];
  /** The limit breach or key encoding failure that cut the read short, if any. */
  readFailure: Diagnostic | null;
  /** The session's agentKv blobs, when it links any (undefined where the carrier has none). */
  agentKv?: AgentKvSessionBytes | null;
  subagent?: SubagentEvidence[];
}

/** Hydration's form of a global session; `decodeGlobalSession` turns it into the one above. */
export type ComposerGlobalBytesContribution = Contribution<'composer-global-bytes', ComposerGlobalBytes>;

/** One session rebuilt from a workspace index entry (no global bubbles): partial by nature. */
export interface ComposerWorkspaceData {
  entryKind: 'inline' | 'head' | 'legacy-tab';
  /** The parsed index element (`allComposers[i]` or a legacy chat tab), or null when unreadable. */
  entry: Record<string, unknown> | null;
  /** The workspace's `aiService.generations` entries (read for `head` entries only). */
  generations: Record<string, unknown>[];
  /** True when a read limit or encoding failure prevented a whole read. */
  truncated: boolean;
}

export type ComposerWorkspaceContribution = Contribution<'composer-workspace', ComposerWorkspaceData>;
