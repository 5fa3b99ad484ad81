/**
 * Composers with no bubble rows whose `conversationState` names prompt message blobs: their text
 * exists only in agentKv. Only the state string is read (inside SQLite), never a blob. A state of
 * turns only (protobuf content, §1.4a) is counted, not a session.
 */
import type Database from 'better-sqlite3';
import { BUBBLE_PREFIX, COMPOSER_DATA_PREFIX } from '../composer/bubble-key-owners.js';
import type { HydrationBudget } from '../sqlite/keyset-pager.js';
import { prefixUpperBound } from '../sqlite/keyset-pager.js';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';
import { parseConversationState } from './conversation-state.js';

export function* agentKvOnlyComposers(
  db: Database.Database,
  known: ReadonlySet<string>,
  budget: HydrationBudget,
  skipped: { protobufOnly: number } = { protobufOnly: 0 },
): Generator<string> {
  const keys = db.prepare(
    `SELECT CAST(key AS BLOB) AS k FROM cursorDiskKV
      WHERE key >= ? AND key < ? AND substr(CAST(key AS BLOB), 1, 13) = CAST('composerData:' AS BLOB)`,
  );
  const hasBubble = db.prepare('SELECT 1 FROM cursorDiskKV WHERE key >= ? AND key < ? LIMIT 1').pluck(true);
  const state = db
    .prepare(
      `SELECT CASE WHEN json_valid(value) THEN json_extract(CAST(value AS TEXT), '$.conversationState') END
         FROM cursorDiskKV WHERE key = ? AND CAST(key AS BLOB) = CAST(? AS BLOB)`,
    )
    .pluck(true);
  for (const row of keys.iterate(COMPOSER_DATA_PREFIX, prefixUpperBound(COMPOSER_DATA_PREFIX)) as Iterable<{
    k: Buffer;
  }>) {
    budget.chargeRows(1);
    let key: string;
    try {
      key = decodeStrictUtf8(row.k, 'sqlite', false);
    } catch {
      continue;
    }
    const composerId = key.slice(COMPOSER_DATA_PREFIX.length);
    if (composerId.length === 0 || known.has(composerId)) continue;
    const prefix = `${BUBBLE_PREFIX}${composerId}:`;
    if (hasBubble.get(prefix, prefixUpperBound(prefix)) !== undefined) continue;
    const value = state.get(key, key);
    if (typeof value !== 'string') continue;
    const root = parseConversationState(value);
    if (root !== null && root.promptIds.length > 0) yield composerId;
    else if (root !== null && root.turnIds.length > 0) skipped.protobufOnly++;
  }
}
