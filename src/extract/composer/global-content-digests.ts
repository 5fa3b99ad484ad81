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

/**
 * Rows per chunk, and the largest value a chunk carries (a larger one is read on its own): a chunk
 * stays under the 256 KB at which `bin/etl`'s malloc maps fresh pages, whose faults cost more than
 * the per-row buffers saved.
 */
const CHUNK_ROWS = 48;
export const CHUNK_VALUE_BYTES = 4096;

// The same rows, a chunk at a time: their values joined into one blob, with their rowids and
// byte lengths to cut it. One buffer per chunk rather than per row takes ~17 % off the pass.
const bubbleChunkSql = (
  after: boolean,
): string => `SELECT json_group_array(r) AS rs, json_group_array(l) AS ls,
    CAST(group_concat(CASE WHEN l <= ${CHUNK_VALUE_BYTES} THEN v END, '') AS BLOB) AS b
  FROM (SELECT rowid AS r, octet_length(CAST(value AS BLOB)) AS l, CAST(value AS BLOB) AS v
    FROM cursorDiskKV NOT INDEXED
    WHERE ${after ? 'rowid > ? AND ' : ''}substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB)
    ORDER BY rowid LIMIT ${CHUNK_ROWS})`;

const ONE_VALUE_SQL = 'SELECT CAST(value AS BLOB) FROM cursorDiskKV WHERE rowid = ?';

/** What the pass needs of one session. */
export interface DigestSession {
  composerId: string;
  /** The rowids of its bubble rows, as its hydration selects them (the key index alone answers). */
  rowids(): Iterable<number>;
  /** Its `composerData` value, null for NULL, undefined when absent. */
  doc(): Buffer | null | undefined;
  /** Its `codeBlockDiff` rows in rowid order, digested after its bubbles (none when absent). */
  diffs?(): Iterable<[number, Uint8Array | null]>;
}

/** A chunk that does not cut as its lengths say: the row-by-row pass decides instead. */
class UncutChunk extends Error {}

function* rowByRow(db: Database.Database): Generator<[number, Buffer | null]> {
  yield* db
    .prepare(BUBBLE_VALUES_SQL)
    .raw(true)
    .iterate(Buffer.byteLength(BUBBLE_PREFIX), BUBBLE_PREFIX) as IterableIterator<[number, Buffer | null]>;
}

/** Every bubble row in rowid order, as the row-by-row query reads it, from chunks. */
export function* chunkedBubbleRows(db: Database.Database): Generator<[number, Uint8Array | null]> {
  const first = db.prepare(bubbleChunkSql(false)).raw(true);
  const next = db.prepare(bubbleChunkSql(true)).raw(true);
  const one = db.prepare(ONE_VALUE_SQL).pluck();
  const prefix = [Buffer.byteLength(BUBBLE_PREFIX), BUBBLE_PREFIX] as const;
  let after: number | null = null;
  for (;;) {
    const [rs, ls, b] = (after === null ? first.get(...prefix) : next.get(after, ...prefix)) as [
      string,
      string,
      Buffer | null,
    ];
    const rowids = JSON.parse(rs) as number[];
    const lengths = JSON.parse(ls) as (number | null)[];
    if (rowids.length === 0) return;
    const joined = b ?? Buffer.alloc(0);
    // The aggregates see the rows in one order: ascending rowids show it is the rowid order.
    let offset = 0;
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i]!;
      const length = lengths[i] ?? null;
      if (!Number.isSafeInteger(rowid) || (after !== null && rowid <= after)) throw new UncutChunk();
      after = rowid;
      if (length === null) yield [rowid, null];
      else if (length > CHUNK_VALUE_BYTES) {
        const value = one.get(rowid) as Buffer | null | undefined;
        if (value?.length !== length) throw new UncutChunk();
        yield [rowid, value];
      } else {
        if (offset + length > joined.length) throw new UncutChunk();
        yield [rowid, joined.subarray(offset, offset + length)];
        offset += length;
      }
    }
    if (offset !== joined.length) throw new UncutChunk();
  }
}

/** Composer ID → content digest of each of `sessions`, equal to what its hydration computes. */
export function globalContentDigests(
  db: Database.Database,
  sessions: Iterable<DigestSession>,
): Map<string, string> {
  const list = [...sessions];
  // group_concat reads values as text: only a UTF-8 database keeps their bytes.
  const utf8 = String(db.pragma('encoding', { simple: true })).toUpperCase() === 'UTF-8';
  if (utf8) {
    try {
      return digestsOf(list, chunkedBubbleRows(db));
    } catch (error) {
      if (!(error instanceof UncutChunk)) throw error;
    }
  }
  return digestsOf(list, rowByRow(db));
}

function digestsOf(
  sessions: readonly DigestSession[],
  rows: Iterable<[number, Uint8Array | null]>,
): Map<string, string> {
  const digests: ContentDigest[] = [];
  const sessionOf = new Map<number, number>();
  for (const session of sessions) {
    const index = digests.length;
    const digest = new ContentDigest();
    digest.doc(session.doc());
    digests.push(digest);
    for (const rowid of session.rowids()) sessionOf.set(rowid, index);
  }
  if (sessionOf.size > 0) {
    for (const [rowid, value] of rows) {
      const index = sessionOf.get(rowid);
      if (index !== undefined) digests[index]!.bubble(rowid, value);
    }
  }
  sessions.forEach((session, index) => {
    for (const [rowid, value] of session.diffs?.() ?? []) digests[index]!.diff(rowid, value);
  });
  return new Map(sessions.map((session, index) => [session.composerId, digests[index]!.digest()]));
}
