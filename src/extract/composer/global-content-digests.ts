/**
 * The content digests of many global sessions from one pass over the table in rowid order: the
 * per-session query seeks the key index and sorts each session's rows, several times the cost of
 * reading the values once. Each row's session comes from its rowid, so no key reaches JS.
 */
import type Database from 'better-sqlite3';
import { BUBBLE_PREFIX } from './bubble-key-owners.js';
import { ContentDigest } from './session-fingerprint.js';

// NOT INDEXED: the key index would return rows in key order and seek the table for each one. The
// prefix test keeps other rows' values out of JS; which session a row is in is decided by rowid.
const BUBBLE_VALUES_SQL = `SELECT rowid AS r, CAST(value AS BLOB) AS v
  FROM cursorDiskKV NOT INDEXED
  WHERE substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB) ORDER BY rowid`;

/** What the pass needs of one session. */
export interface DigestSession {
  composerId: string;
  /** The rowids of its bubble rows, as its hydration selects them (the key index alone answers). */
  rowids(): Iterable<number>;
  /** Its `composerData` value, null for NULL, undefined when absent. */
  doc(): Buffer | null | undefined;
}

/** Composer ID → content digest of each of `sessions`, equal to what its hydration computes. */
export function globalContentDigests(
  db: Database.Database,
  sessions: Iterable<DigestSession>,
): Map<string, string> {
  const digests: ContentDigest[] = [];
  const ids: string[] = [];
  const sessionOf = new Map<number, number>();
  for (const session of sessions) {
    const index = digests.length;
    const digest = new ContentDigest();
    digest.doc(session.doc());
    digests.push(digest);
    ids.push(session.composerId);
    for (const rowid of session.rowids()) sessionOf.set(rowid, index);
  }
  if (sessionOf.size > 0) {
    const rows = db
      .prepare(BUBBLE_VALUES_SQL)
      .raw(true)
      .iterate(Buffer.byteLength(BUBBLE_PREFIX), BUBBLE_PREFIX) as IterableIterator<[number, Buffer | null]>;
    for (const [rowid, value] of rows) {
      const index = sessionOf.get(rowid);
      if (index !== undefined) digests[index]!.bubble(rowid, value);
    }
  }
  return new Map(ids.map((id, index) => [id, digests[index]!.digest()]));
}
