/**
 * Reads `~/.cursor/ai-tracking/ai-code-tracking.db` (cursor-formats §4): a missing table or column
 * is normal (older and partial installs), so every query names only the columns `PRAGMA
 * table_info` lists; rows are charged to the hydration budget and bounded by the read limits.
 */
import type Database from 'better-sqlite3';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import type { SdkCell } from '../sdk/sdk-contribution.js';
import { presentColumns } from '../sdk/sdk-index-reader.js';
import { HydrationBudget } from '../sqlite/keyset-pager.js';
import { hasTable } from '../sqlite/sqlite-snapshot.js';
import { cachedStatement } from '../sqlite/statement-cache.js';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';
import type { CodeTrackingData, TrackingRow } from './code-tracking-contribution.js';

const SUMMARY_COLUMNS = ['title', 'tldr', 'overview', 'model', 'mode', 'updatedAt'];
const DELETED_COLUMNS = ['gitPath', 'model', 'deletedAt'];
const GROUP_COLUMNS = ['requestId', 'fileName', 'source', 'model'];

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function cell(value: unknown): SdkCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number')
    return Number.isSafeInteger(value) || !Number.isInteger(value)
      ? value
      : { storageClass: 'integer-overflow' };
  if (typeof value === 'string') return decodeStrictUtf8(value, 'ai-code-tracking');
  return { storageClass: 'blob' };
}

function rowOf(raw: Record<string, unknown>): TrackingRow {
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, cell(v)]));
}

/** The conversations the DB names, with cheap change evidence per conversation (no payload read). */
export function trackedConversations(db: Database.Database, limits: ReadLimits): Map<string, string> {
  const budget = new HydrationBudget(limits);
  const out = new Map<string, string[]>();
  const add = (table: string, stampColumns: string[]) => {
    if (!hasTable(db, table) || presentColumns(db, table, ['conversationId']).length === 0) return;
    const stamps = presentColumns(db, table, stampColumns).map((c) => `max(${quote(c)})`);
    const rows = cachedStatement(
      db,
      `SELECT conversationId AS id, count(*) AS n${stamps.length > 0 ? `, ${stamps.join(', ')} AS s` : ''}
         FROM ${quote(table)} WHERE typeof(conversationId) = 'text' AND conversationId <> '' GROUP BY conversationId`,
    )
      .raw()
      .all() as unknown[][];
    budget.chargeRows(rows.length);
    for (const [id, ...evidence] of rows) {
      const key = String(id);
      out.set(key, [...(out.get(key) ?? []), `${table}:${evidence.map(String).join(',')}`]);
    }
  };
  add('ai_code_hashes', ['createdAt', 'timestamp']);
  add('conversation_summaries', ['updatedAt']);
  add('ai_deleted_files', ['deletedAt']);
  return new Map([...out].map(([id, evidence]) => [id, evidence.join('|')]));
}

export function readTrackedConversation(
  db: Database.Database,
  conversationId: string,
  env: { limits: ReadLimits; counters: ReadCounters },
): CodeTrackingData {
  const budget = new HydrationBudget(env.limits);
  const select = (table: string, columns: string[], tail: string): TrackingRow[] => {
    if (!hasTable(db, table) || presentColumns(db, table, ['conversationId']).length === 0) return [];
    const present = presentColumns(db, table, columns);
    if (present.length === 0) return [];
    const rows = cachedStatement(
      db,
      `SELECT ${present.map(quote).join(', ')}${tail.startsWith(' GROUP') ? ', count(*) AS lines' : ''}
         FROM ${quote(table)} WHERE conversationId = ?${tail} LIMIT ?`,
    ).all(conversationId, env.limits.sqliteRowCount + 1) as Record<string, unknown>[];
    budget.chargeRows(rows.length);
    const bytes = rows.reduce((n, r) => n + JSON.stringify(r).length, 0);
    budget.chargeBytes(bytes);
    env.counters.chargePayload(bytes);
    return rows.map(rowOf);
  };
  const groupColumns = hasTable(db, 'ai_code_hashes')
    ? presentColumns(db, 'ai_code_hashes', GROUP_COLUMNS)
    : [];
  const attribution =
    groupColumns.length === 0
      ? []
      : select(
          'ai_code_hashes',
          groupColumns,
          ` GROUP BY ${groupColumns.map(quote).join(', ')} ORDER BY ${groupColumns.map(quote).join(', ')}`,
        );
  const summaries = select('conversation_summaries', SUMMARY_COLUMNS, '');
  return {
    status: 'read',
    summary: summaries[0] ?? null,
    attribution,
    deletedFiles: select('ai_deleted_files', DELETED_COLUMNS, ' ORDER BY rowid'),
  };
}
