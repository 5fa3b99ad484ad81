/**
 * The chat index of one workspace `state.vscdb`, from metadata only: every index generation (2024
 * inline `conversation`, 2025 `head` entries + `selectedComposerIds`, legacy chat `tabs`) and the
 * Cursor 3.x pane pointer keys. Conversation payloads stay inside SQLite (projected by `json_each`).
 */
import type Database from 'better-sqlite3';
import type { ReadLimits } from '../limits/read-limits.js';
import { ReadCounters } from '../read-counters.js';
import { type HydrationBudget, KeysetPager } from '../sqlite/keyset-pager.js';
import { hasTable } from '../sqlite/sqlite-snapshot.js';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';
import { jsonArrayElements, jsonItemRow } from './item-json.js';

export const COMPOSER_INDEX_KEY = 'composer.composerData';
export const LEGACY_CHAT_KEYS = [
  'workbench.panel.aichat.view.aichat.chatdata',
  'workbench.panel.chat.view.chat.chatdata',
] as const;
const PANE_PREFIX = 'workbench.panel.composerChatViewPane.';
const PANE_POINTER = /workbench\.panel\.aichat\.view\.([^"\\]+)/g;

export type WorkspaceEntryKind = 'inline' | 'head' | 'legacy-tab';

/** Where one session's entry lives inside the workspace DB (enough to hydrate it later). */
export interface WorkspaceEntryRef {
  composerId: string;
  kind: WorkspaceEntryKind;
  /** ItemTable key and JSON path of the element, e.g. `$.allComposers[3]`. */
  itemKey: string;
  elementPath: string;
}

export interface WorkspaceIndex {
  entries: WorkspaceEntryRef[];
  /** IDs named only by `selectedComposerIds` or pane pointers (membership evidence, no data). */
  pointerIds: Set<string>;
}

function stringValue(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

interface IndexScan {
  db: Database.Database;
  limits: ReadLimits;
  budget: HydrationBudget;
  index: WorkspaceIndex;
  seen: Set<string>;
}

function elements(
  scan: IndexScan,
  key: string,
  arrayPaths: readonly string[],
  fields: Record<string, string>,
) {
  const rowid = jsonItemRow(scan.db, 'ItemTable', key, scan.limits, scan.budget);
  if (rowid === null) return [];
  return arrayPaths.flatMap((arrayPath) =>
    [...jsonArrayElements(scan.db, 'ItemTable', rowid, arrayPath, fields, scan.limits, scan.budget)].map(
      (element) => ({ ...element, arrayPath }),
    ),
  );
}

function addEntry(
  scan: IndexScan,
  composerId: string | null,
  entry: Omit<WorkspaceEntryRef, 'composerId'>,
): void {
  if (composerId === null || scan.seen.has(composerId)) return;
  scan.seen.add(composerId);
  scan.index.entries.push({ composerId, ...entry });
}

function composerEntries(scan: IndexScan): void {
  const fields = { composerId: '$.composerId', conversation: '$.conversation' };
  for (const { index, values } of elements(scan, COMPOSER_INDEX_KEY, ['$.allComposers'], fields))
    addEntry(scan, stringValue(values.composerId), {
      kind: values.conversation === 'array' ? 'inline' : 'head',
      itemKey: COMPOSER_INDEX_KEY,
      elementPath: `$.allComposers[${index}]`,
    });
  for (const { values } of elements(scan, COMPOSER_INDEX_KEY, ['$.selectedComposerIds'], { id: '$' })) {
    const id = stringValue(values.id);
    if (id !== null) scan.index.pointerIds.add(id);
  }
}

function legacyTabs(scan: IndexScan): void {
  for (const key of LEGACY_CHAT_KEYS) {
    const fields = { tabId: '$.tabId', id: '$.id' };
    for (const { index, values, arrayPath } of elements(scan, key, ['$.tabs', '$.chatSessions'], fields))
      addEntry(scan, stringValue(values.tabId) ?? stringValue(values.id), {
        kind: 'legacy-tab',
        itemKey: key,
        elementPath: `${arrayPath}[${index}]`,
      });
  }
}

function panePointers(
  db: Database.Database,
  limits: ReadLimits,
  budget: HydrationBudget,
  index: WorkspaceIndex,
): void {
  const pager = new KeysetPager(db, 'ItemTable', limits, new ReadCounters());
  for (const page of pager.pages(PANE_PREFIX, budget)) {
    for (const meta of page) {
      const bytes = pager.fetch(meta, budget);
      if (bytes === null || bytes === 'changed') continue;
      const text = decodeStrictUtf8(bytes, 'sqlite');
      for (const match of text.matchAll(PANE_POINTER)) index.pointerIds.add(match[1]!);
    }
  }
}

export function readWorkspaceIndex(
  db: Database.Database,
  limits: ReadLimits,
  budget: HydrationBudget,
): WorkspaceIndex {
  const index: WorkspaceIndex = { entries: [], pointerIds: new Set() };
  if (!hasTable(db, 'ItemTable')) return index;
  const scan: IndexScan = { db, limits, budget, index, seen: new Set() };
  composerEntries(scan);
  legacyTabs(scan);
  panePointers(db, limits, budget, index);
  return index;
}
