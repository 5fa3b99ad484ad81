/**
 * Every global session's content digest from one pass over the table in rowid order: the
 * per-session query seeks the key index and sorts each session's rows, several times the cost of
 * reading the values once. The rows and their order are the same, so the digests are equal.
 */
import type Database from 'better-sqlite3';
import { decodeStrictUtf8, SourceEncodingInvalid } from '../text/strict-utf8.js';
import { BUBBLE_PREFIX, type BubbleKeyOwners } from './bubble-key-owners.js';
import { ContentDigest } from './session-fingerprint.js';

// NOT INDEXED: the key index would return rows in key order and seek the table for each one. Only
// text keys, as the per-session range (`key >= ? AND key < ?`) compares text.
const BUBBLE_ROWS_SQL = `SELECT rowid AS r, CAST(key AS BLOB) AS k, CAST(value AS BLOB) AS v
  FROM cursorDiskKV NOT INDEXED
  WHERE typeof(key) = 'text' AND substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB) ORDER BY rowid`;

/**
 * Composer ID → content digest of every session holding a bubble row; null when a key is not
 * UTF-8 (the per-session query, which compares bytes, then answers for each session).
 */
export function globalContentDigests(
  db: Database.Database,
  owners: BubbleKeyOwners,
  docValue: (composerId: string) => Buffer | null | undefined,
): Map<string, string> | null {
  const digests = new Map<string, ContentDigest>();
  const rows = db
    .prepare(BUBBLE_ROWS_SQL)
    .raw(true)
    .iterate(Buffer.byteLength(BUBBLE_PREFIX), BUBBLE_PREFIX) as IterableIterator<
    [number, Buffer, Buffer | null]
  >;
  for (const [rowid, keyBytes, value] of rows) {
    let key: string;
    try {
      key = decodeStrictUtf8(keyBytes, 'sqlite', false);
    } catch (error) {
      if (!(error instanceof SourceEncodingInvalid)) throw error;
      rows.return?.();
      return null;
    }
    const owner = owners.owner(key);
    if (owner === null) continue;
    let digest = digests.get(owner);
    if (digest === undefined) {
      digest = new ContentDigest();
      digest.doc(docValue(owner));
      digests.set(owner, digest);
    }
    digest.bubble(rowid, value);
  }
  return new Map([...digests].map(([owner, digest]) => [owner, digest.digest()]));
}
