/** What the Composer extractor hands to the transform stage for one session occurrence. */
import type { Contribution } from '../source-adapter.js';

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
    | 'changed-during-read'
    | null;
}

export interface ComposerGlobalData {
  /** Parsed `composerData:<id>` document, or null when absent, NULL or invalid. */
  composerData: Record<string, unknown> | null;
  bubbles: RawBubble[];
  /** True when a read limit or encoding failure cut the read short. */
  truncated: boolean;
}

export type ComposerGlobalContribution = Contribution<'composer-global', ComposerGlobalData>;

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
