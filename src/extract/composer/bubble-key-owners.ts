/**
 * Which session a `bubbleId:<composerId>:<bubbleId>` key belongs to: both IDs may hold `:`, so the
 * owner is the longest colon-bounded prefix naming a composer with a `composerData:` row, else the
 * text before the first colon. Only composer IDs holding `:` are kept.
 */
import type Database from 'better-sqlite3';
import type { HydrationBudget } from '../sqlite/keyset-pager.js';
import { prefixUpperBound } from '../sqlite/keyset-pager.js';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';

export const BUBBLE_PREFIX = 'bubbleId:';
export const COMPOSER_DATA_PREFIX = 'composerData:';
/** `codeBlockDiff:<composerId>:<diffId>` rows (cursor-formats §8.1): line hunks of code blocks. */
export const CODE_BLOCK_DIFF_PREFIX = 'codeBlockDiff:';

const NONE: readonly string[] = [];

/** The owner of `rest` (a key after `bubbleId:`) among `known` colon-bearing IDs; null when none. */
function ownerIn(rest: string, known: ReadonlySet<string>): string | null {
  const first = rest.indexOf(':');
  for (let at = rest.lastIndexOf(':'); at > first; at = rest.lastIndexOf(':', at - 1)) {
    const candidate = rest.slice(0, at);
    if (known.has(candidate)) return candidate;
  }
  return first > 0 ? rest.slice(0, first) : null;
}

export class BubbleKeyOwners {
  /** Session ID → `bubbleId:<nested>:` prefixes of the composers whose keys lie inside its range. */
  private readonly nested = new Map<string, string[]>();

  constructor(readonly colonIds: ReadonlySet<string>) {
    for (const id of colonIds) {
      const parent = ownerIn(id, colonIds);
      if (parent === null) continue;
      const list = this.nested.get(parent) ?? [];
      list.push(`${BUBBLE_PREFIX}${id}:`);
      this.nested.set(parent, list);
    }
  }

  /** Reads the composer IDs holding `:` from the `composerData:` key index (no payload is read). */
  static read(db: Database.Database, budget: HydrationBudget): BubbleKeyOwners {
    const rows = db
      .prepare(
        `SELECT CAST(key AS BLOB) AS k FROM cursorDiskKV
          WHERE key >= ? AND key < ? AND substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB)
            AND instr(substr(CAST(key AS BLOB), ?), CAST(':' AS BLOB)) > 0`,
      )
      .raw(true)
      .iterate(
        COMPOSER_DATA_PREFIX,
        prefixUpperBound(COMPOSER_DATA_PREFIX),
        COMPOSER_DATA_PREFIX.length,
        COMPOSER_DATA_PREFIX,
        COMPOSER_DATA_PREFIX.length + 1,
      ) as IterableIterator<[Buffer]>;
    const ids = new Set<string>();
    for (const [key] of rows) {
      budget.chargeRows(1);
      ids.add(decodeStrictUtf8(key.subarray(COMPOSER_DATA_PREFIX.length), 'sqlite', false));
    }
    return new BubbleKeyOwners(ids);
  }

  /** The session a bubble key names, or null when it names none (no bubble segment, empty ID). */
  owner(key: string): string | null {
    return ownerIn(key.slice(BUBBLE_PREFIX.length), this.colonIds);
  }

  /** The key prefixes inside `bubbleId:<sessionId>:` that belong to other sessions. */
  excluded(sessionId: string): readonly string[] {
    return this.nested.get(sessionId) ?? NONE;
  }
}
