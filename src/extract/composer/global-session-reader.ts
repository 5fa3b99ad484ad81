/**
 * Hydrates one Composer session from the global DB: `composerData:<id>` plus every
 * `bubbleId:<id>:` row in ascending rowid order (orphans included). NULL, undecodable or non-JSON
 * bubbles are kept as corrupted entries; a limit breach stops the read and marks it truncated.
 */
import type Database from 'better-sqlite3';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { HydrationBudget, type KeyRowMeta, KeysetPager } from '../sqlite/keyset-pager.js';
import { decodeStrictUtf8, SourceEncodingInvalid } from '../text/strict-utf8.js';
import type { ComposerGlobalData, RawBubble } from './composer-contribution.js';
import { BUBBLE_PREFIX, COMPOSER_DATA_PREFIX } from './global-catalog.js';
import type { SessionStats } from './session-fingerprint.js';

type Decoded =
  | { value: Record<string, unknown>; corruption: null }
  | { value: null; corruption: NonNullable<RawBubble['corruption']> };

// A lone surrogate escape has no UTF-8 form: storing it would silently replace it, so it is rejected.
const LONE_SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = new Error('lone surrogate');
function rejectLoneSurrogates(_key: string, value: unknown): unknown {
  if (typeof value === 'string' && !value.isWellFormed()) throw LONE_SURROGATE;
  return value;
}

function decodeJsonObject(bytes: Buffer | null | 'changed'): Decoded {
  if (bytes === 'changed') return { value: null, corruption: 'changed-during-read' };
  if (bytes === null) return { value: null, corruption: 'null-value' };
  let text: string;
  try {
    text = decodeStrictUtf8(bytes, 'sqlite');
  } catch (error) {
    if (error instanceof SourceEncodingInvalid) return { value: null, corruption: 'invalid-encoding' };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, LONE_SURROGATE_ESCAPE.test(text) ? rejectLoneSurrogates : undefined);
  } catch (error) {
    return { value: null, corruption: error === LONE_SURROGATE ? 'invalid-encoding' : 'invalid-json' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { value: null, corruption: 'not-an-object' };
  }
  return { value: parsed as Record<string, unknown>, corruption: null };
}

export function readGlobalSession(
  db: Database.Database,
  composerId: string,
  limits: ReadLimits,
  counters: ReadCounters,
  scope: { sessionId: string; sourceRef: string },
): { data: ComposerGlobalData; diagnostics: Diagnostic[]; stats: SessionStats | null } {
  const pager = new KeysetPager(db, 'cursorDiskKV', limits, counters);
  const budget = new HydrationBudget(limits);
  const diagnostics: Diagnostic[] = [];
  const data: ComposerGlobalData = { composerData: null, bubbles: [], truncated: false };
  let stats: SessionStats | null = null;
  try {
    const docMeta = pager.exact(`${COMPOSER_DATA_PREFIX}${composerId}`, budget);
    const seen: SessionStats = {
      rows: 0,
      maxRowid: null,
      valueBytes: 0,
      rowidSum: 0,
      docRowid: docMeta?.rowid ?? null,
      docBytes: docMeta === null || docMeta.isNull ? null : docMeta.byteLength,
    };
    if (docMeta) {
      const doc = decodeJsonObject(pager.fetch(docMeta, budget));
      data.composerData = doc.value;
      if (doc.corruption !== null) {
        diagnostics.push(
          diagnostic(
            'COMPOSER_DATA_UNREADABLE',
            'Session metadata is unreadable; messages are kept',
            { reason: doc.corruption },
            scope,
          ),
        );
      }
    }
    const prefix = `${BUBBLE_PREFIX}${composerId}:`;
    for (const page of pager.pages(prefix, budget)) {
      addPage(seen, page);
      let i = 0;
      for (const bytes of pager.fetchPage(page, prefix, budget))
        data.bubbles.push(toBubble(page[i++]!, prefix, decodeJsonObject(bytes)));
    }
    // Sums past 2^53 would differ from SQLite's; the catalog's stats query then computes them.
    if (Number.isSafeInteger(seen.rowidSum) && Number.isSafeInteger(seen.valueBytes)) stats = seen;
  } catch (error) {
    if (error instanceof SourceLimitExceeded || error instanceof SourceEncodingInvalid) {
      data.truncated = true;
      diagnostics.push(error.asDiagnostic(scope));
    } else {
      throw error;
    }
  }
  // Undecodable text is never guessed: the bubble stays a flagged placeholder and the view is partial.
  if (data.bubbles.some((bubble) => bubble.corruption === 'invalid-encoding'))
    diagnostics.push(new SourceEncodingInvalid('invalid-utf8', 'sqlite').asDiagnostic(scope));
  const corrupted = data.bubbles.filter((bubble) => bubble.corruption !== null).length;
  if (corrupted > 0) {
    diagnostics.push(
      diagnostic(
        'COMPOSER_BUBBLE_CORRUPTED',
        'Some messages could not be decoded and are kept as placeholders',
        { count: corrupted },
        scope,
      ),
    );
  }
  return { data, diagnostics, stats };
}

/** The catalog's bubble stats over the same rows: `page` is every row's metadata, in rowid order. */
function addPage(stats: SessionStats, page: readonly KeyRowMeta[]): void {
  for (const meta of page) {
    stats.rows++;
    stats.valueBytes += meta.byteLength;
    stats.rowidSum += meta.rowid;
  }
  if (page.length > 0) stats.maxRowid = page[page.length - 1]!.rowid;
}

function toBubble(meta: KeyRowMeta, prefix: string, decoded: Decoded): RawBubble {
  return {
    rowid: meta.rowid,
    keyBubbleId: meta.key.slice(prefix.length),
    value: decoded.value,
    corruption: decoded.corruption,
  };
}
