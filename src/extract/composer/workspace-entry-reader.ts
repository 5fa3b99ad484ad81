/**
 * Hydrates one session's workspace index entry: the single `allComposers[i]` or legacy tab element
 * (extracted inside SQLite, then decoded strictly) and, for `head` entries, `aiService.generations`.
 */
import type Database from 'better-sqlite3';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { checkLimit, SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { HydrationBudget, KeysetPager } from '../sqlite/keyset-pager.js';
import { hasTable } from '../sqlite/sqlite-snapshot.js';
import { parseStrictJson } from '../text/strict-json.js';
import { decodeStrictUtf8, SourceEncodingInvalid } from '../text/strict-utf8.js';
import type { ComposerWorkspaceData } from './composer-contribution.js';
import { admitJsonItem, type JsonItemMeta, jsonArrayElementBytes, jsonItemMeta } from './item-json.js';
import type { WorkspaceEntryRef } from './workspace-index.js';

const GENERATIONS_KEY = 'aiService.generations';

function parseJson(bytes: Buffer): unknown {
  try {
    return parseStrictJson(decodeStrictUtf8(bytes, 'sqlite'), 'sqlite');
  } catch (error) {
    if (error instanceof SourceEncodingInvalid) throw error;
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function entryId(entry: Record<string, unknown>): unknown {
  return entry.composerId ?? entry.tabId ?? entry.id;
}

function readGenerations(
  db: Database.Database,
  limits: ReadLimits,
  counters: ReadCounters,
  budget: HydrationBudget,
): Record<string, unknown>[] {
  const pager = new KeysetPager(db, 'ItemTable', limits, counters);
  const meta = pager.exact(GENERATIONS_KEY, budget);
  if (!meta) return [];
  const bytes = pager.fetch(meta, budget);
  if (bytes === null || bytes === 'changed') return [];
  const parsed = parseJson(bytes);
  return Array.isArray(parsed) ? parsed.filter(isRecord) : [];
}

/**
 * What several entry reads of one DB share while it stays open in one call: whether it has an
 * ItemTable and each index item's metadata. Each read still charges its own budget as if it asked.
 */
export class WorkspaceItems {
  private itemTable: boolean | undefined;
  private readonly metas = new Map<string, JsonItemMeta | null>();

  constructor(
    private readonly db: Database.Database,
    private readonly limits: ReadLimits,
  ) {}

  hasItemTable(): boolean {
    this.itemTable ??= hasTable(this.db, 'ItemTable');
    return this.itemTable;
  }

  meta(key: string): JsonItemMeta | null {
    let meta = this.metas.get(key);
    if (meta === undefined) {
      meta = jsonItemMeta(this.db, 'ItemTable', key, this.limits);
      this.metas.set(key, meta);
    }
    return meta;
  }
}

export function readWorkspaceEntry(
  db: Database.Database,
  ref: WorkspaceEntryRef,
  limits: ReadLimits,
  counters: ReadCounters,
  scope: { sessionId: string; sourceRef: string },
  items: WorkspaceItems = new WorkspaceItems(db, limits),
): { data: ComposerWorkspaceData; diagnostics: Diagnostic[] } {
  const data: ComposerWorkspaceData = { entryKind: ref.kind, entry: null, generations: [], truncated: false };
  const diagnostics: Diagnostic[] = [];
  if (!items.hasItemTable()) return { data, diagnostics };
  const budget = new HydrationBudget(limits);
  try {
    const rowid = admitJsonItem(items.meta(ref.itemKey), limits, budget);
    const bytes = rowid === null ? null : jsonArrayElementBytes(db, 'ItemTable', rowid, ref.elementPath);
    if (bytes !== null) {
      checkLimit('sqliteValueBytes', limits.sqliteValueBytes, bytes.length);
      budget.chargeBytes(bytes.length);
      counters.chargePayload(bytes.length);
      const parsed = parseJson(bytes);
      // The snapshot is consistent, so a different ID here would be a reader bug, not a race.
      if (isRecord(parsed) && entryId(parsed) === ref.composerId) data.entry = parsed;
    }
    if (ref.kind === 'head') data.generations = readGenerations(db, limits, counters, budget);
  } catch (error) {
    if (!(error instanceof SourceLimitExceeded || error instanceof SourceEncodingInvalid)) throw error;
    data.truncated = true;
    diagnostics.push(error.asDiagnostic(scope));
  }
  if (data.entry === null && !data.truncated)
    diagnostics.push(
      diagnostic('COMPOSER_INDEX_ENTRY_UNREADABLE', 'A workspace index entry is unreadable', {}, scope),
    );
  return { data, diagnostics };
}
