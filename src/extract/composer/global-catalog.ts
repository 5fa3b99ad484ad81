/**
 * Catalogs the sessions of a global `state.vscdb` without reading payloads: a skip-scan over the
 * `bubbleId:` key index finds each composer ID with at least one bubble in O(sessions) index
 * seeks, and a per-session fingerprint (row count, max rowid, summed rowids) detects change; its
 * stats query reads only the key index and runs only when the fingerprint is asked for before a
 * hydration supplied it.
 */

import type Database from 'better-sqlite3';
import type { HydrationBudget } from '../sqlite/keyset-pager.js';
import { prefixUpperBound } from '../sqlite/keyset-pager.js';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';
import { LazyFingerprint, type SessionStats } from './session-fingerprint.js';

export const BUBBLE_PREFIX = 'bubbleId:';
export const COMPOSER_DATA_PREFIX = 'composerData:';

/** One session's bubble stats: it names only `key` and `rowid`, so SQLite answers from the key index. */
export const SESSION_STATS_SQL = `SELECT count(*) AS n, max(rowid) AS maxRow, total(rowid) AS rowSum
  FROM cursorDiskKV WHERE key >= ? AND key < ? AND substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB)`;

export interface GlobalCatalogEntry {
  composerId: string;
  fingerprint: LazyFingerprint;
}

export function* scanGlobalSessions(
  db: Database.Database,
  budget: HydrationBudget,
): Generator<GlobalCatalogEntry> {
  const next = db.prepare(
    `SELECT CAST(key AS BLOB) AS k FROM cursorDiskKV
      WHERE key >= ? AND key < ? AND substr(CAST(key AS BLOB), 1, 9) = CAST('bubbleId:' AS BLOB)
      ORDER BY key LIMIT 1`,
  );
  const stats = db.prepare(SESSION_STATS_SQL);
  const composerRow = db.prepare(
    `SELECT rowid AS rid, octet_length(value) AS len FROM cursorDiskKV
      WHERE key = ? AND CAST(key AS BLOB) = CAST(? AS BLOB)`,
  );
  const query = (composerId: string): SessionStats => {
    const prefix = `${BUBBLE_PREFIX}${composerId}:`;
    const s = stats.get(prefix, prefixUpperBound(prefix), Buffer.byteLength(prefix), prefix) as {
      n: number;
      maxRow: number | null;
      rowSum: number;
    };
    const dataKey = `${COMPOSER_DATA_PREFIX}${composerId}`;
    const doc = composerRow.get(dataKey, dataKey) as { rid: number; len: number | null } | undefined;
    return {
      rows: s.n,
      maxRowid: s.maxRow,
      rowidSum: s.rowSum,
      docRowid: doc?.rid ?? null,
      docBytes: doc?.len ?? null,
    };
  };
  const end = prefixUpperBound(BUBBLE_PREFIX);
  let from = BUBBLE_PREFIX;
  for (;;) {
    const row = next.get(from, end) as { k: Buffer } | undefined;
    if (!row) return;
    budget.chargeRows(1);
    const key = decodeStrictUtf8(row.k, 'sqlite', false);
    const rest = key.slice(BUBBLE_PREFIX.length);
    const colon = rest.indexOf(':');
    if (colon <= 0) {
      // `bubbleId:<x>` without a bubble segment (or an empty composer ID): not a session key.
      from = `${key}\u0000`;
      continue;
    }
    // Decoded from its own bytes: a slice of the key would keep the whole key alive for the run.
    const idBytes = row.k.subarray(BUBBLE_PREFIX.length, row.k.indexOf(':', BUBBLE_PREFIX.length));
    const composerId = decodeStrictUtf8(idBytes, 'sqlite', false);
    yield { composerId, fingerprint: new LazyFingerprint(query, composerId) };
    from = prefixUpperBound(`${BUBBLE_PREFIX}${composerId}:`);
  }
}
