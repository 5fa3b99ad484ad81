/**
 * Hydrates one Composer session from the global DB: `composerData:<id>`, every `bubbleId:<id>:`
 * row by rowid (orphans in, nested sessions' ranges out), then its `codeBlockDiff:<id>:` rows, as bytes
 * (`global-session-decode.ts` decodes them); a limit breach stops the read and marks it truncated.
 */
import type Database from 'better-sqlite3';
import { SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { HydrationBudget, type KeyRowMeta, KeysetPager } from '../sqlite/keyset-pager.js';
import { SourceEncodingInvalid } from '../text/strict-utf8.js';
import { BUBBLE_PREFIX, COMPOSER_DATA_PREFIX } from './bubble-key-owners.js';
import { diffPrefix } from './code-block-diff-rows.js';
import type { ComposerGlobalBytes } from './composer-contribution.js';
import { ContentDigest, type SessionStats } from './session-fingerprint.js';

/** Reads the rows (limits, counters and change checks apply here); decoding is left to the resolver. */
export function readGlobalSession(
  db: Database.Database,
  composerId: string,
  excluded: readonly string[],
  limits: ReadLimits,
  counters: ReadCounters,
  scope: { sessionId: string; sourceRef: string },
): { read: ComposerGlobalBytes; stats: SessionStats | null; content: string | null } {
  const pager = new KeysetPager(db, 'cursorDiskKV', limits, counters);
  const budget = new HydrationBudget(limits);
  const read: ComposerGlobalBytes = { scope, doc: undefined, bubbles: [], diffs: [], readFailure: null };
  let stats: SessionStats | null = null;
  let content: string | null = null;
  const digest = new ContentDigest();
  // A payload a writer changed under the read has no content digest: the stats query stands alone.
  let whole = true;
  try {
    const docMeta = pager.exact(`${COMPOSER_DATA_PREFIX}${composerId}`, budget);
    const seen: SessionStats = {
      rows: 0,
      maxRowid: null,
      rowidSum: 0,
      docRowid: docMeta?.rowid ?? null,
      docBytes: docMeta === null || docMeta.isNull ? null : docMeta.byteLength,
      diffRows: 0,
      diffRowidSum: 0,
    };
    if (docMeta) read.doc = pager.fetch(docMeta, budget);
    if (read.doc === 'changed') whole = false;
    else digest.doc(read.doc);
    const prefix = `${BUBBLE_PREFIX}${composerId}:`;
    for (const page of pager.pages(prefix, budget, excluded)) {
      addPage(seen, page);
      for (const meta of page) {
        const bytes = pager.fetch(meta, budget);
        if (bytes === 'changed') whole = false;
        else digest.bubble(meta.rowid, bytes);
        read.bubbles.push({ rowid: meta.rowid, keyBubbleId: meta.key.slice(prefix.length), bytes });
      }
    }
    const diffs = diffPrefix(composerId);
    for (const page of pager.pages(diffs, budget)) {
      for (const meta of page) {
        seen.diffRows++;
        seen.diffRowidSum += meta.rowid;
        const bytes = pager.fetch(meta, budget);
        if (bytes === 'changed') whole = false;
        else digest.diff(meta.rowid, bytes);
        read.diffs!.push({ diffId: meta.key.slice(diffs.length), bytes });
      }
    }
    // A sum past 2^53 would differ from SQLite's; the catalog's stats query then computes it.
    if (Number.isSafeInteger(seen.rowidSum) && Number.isSafeInteger(seen.diffRowidSum)) stats = seen;
    if (whole) content = digest.digest();
  } catch (error) {
    if (error instanceof SourceLimitExceeded || error instanceof SourceEncodingInvalid) {
      read.readFailure = error.asDiagnostic(scope);
    } else {
      throw error;
    }
  }
  return { read, stats, content };
}

/** The catalog's bubble stats over the same rows: `page` is every row's metadata, in rowid order. */
function addPage(stats: SessionStats, page: readonly KeyRowMeta[]): void {
  for (const meta of page) {
    stats.rows++;
    stats.rowidSum += meta.rowid;
  }
  if (page.length > 0) stats.maxRowid = page[page.length - 1]!.rowid;
}
