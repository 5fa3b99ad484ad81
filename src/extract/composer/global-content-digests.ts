/**
 * The content digests of many global sessions from one pass over the table in rowid order: the
 * per-session query seeks the key index and sorts each session's rows, several times the cost of
 * reading the values once. Each row's session comes from its rowid, so no key reaches JS.
 */
import type Database from 'better-sqlite3';
import { forEachRawRow, RawTableError, type RawTableShape } from '../sqlite/raw-table-rows.js';
import { rawFileOf } from '../sqlite/sqlite-snapshot.js';
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

/**
 * How `cursorDiskKV` lies in the file, when its bytes can stand for SQLite's reading: a UTF-8 rowid
 * table with no rowid alias, its `key` and `value` columns found.
 */
export function rawShape(db: Database.Database): RawTableShape | undefined {
  const root = db
    .prepare(
      "SELECT rootpage AS r, sql AS s FROM sqlite_master WHERE type = 'table' AND name = 'cursorDiskKV'",
    )
    .get() as { r: number; s: string | null } | undefined;
  if (root === undefined || /without\s+rowid/i.test(root.s ?? '')) return undefined;
  const columns = db.prepare("SELECT cid, name, pk FROM pragma_table_info('cursorDiskKV')").all() as {
    cid: number;
    name: string;
    pk: number;
  }[];
  const key = columns.find((c) => c.name.toLowerCase() === 'key');
  const value = columns.find((c) => c.name.toLowerCase() === 'value');
  if (key === undefined || value === undefined || columns.some((c) => c.pk > 0)) return undefined;
  return {
    pageSize: Number(db.pragma('page_size', { simple: true })),
    pageCount: Number(db.pragma('page_count', { simple: true })),
    rootPage: root.r,
    keyColumn: key.cid,
    valueColumn: value.cid,
  };
}

/** Composer ID → content digest of each of `sessions`, equal to what its hydration computes. */
export function globalContentDigests(
  db: Database.Database,
  sessions: Iterable<DigestSession>,
): Map<string, string> {
  const list = [...sessions];
  // group_concat reads values as text, and raw bytes are `CAST(value AS BLOB)`, only in UTF-8.
  const utf8 = String(db.pragma('encoding', { simple: true })).toUpperCase() === 'UTF-8';
  const file = rawFileOf(db);
  const shape = utf8 && file !== undefined ? rawShape(db) : undefined;
  if (file !== undefined && shape !== undefined) {
    try {
      const digests = digestsOf(
        list,
        (row) => forEachRawRow(file, shape, Buffer.from(BUBBLE_PREFIX), row),
        true,
      );
      if (digests !== null) return digests;
    } catch (error) {
      if (!(error instanceof RawTableError)) throw error;
    }
  }
  if (utf8) {
    try {
      return digestsOf(list, iterate(chunkedBubbleRows(db)), false)!;
    } catch (error) {
      if (!(error instanceof UncutChunk)) throw error;
    }
  }
  return digestsOf(list, iterate(rowByRow(db)), false)!;
}

type Rows = (row: (rowid: number, value: Uint8Array | null) => void) => void;

const iterate =
  (rows: Iterable<[number, Uint8Array | null]>): Rows =>
  (row) => {
    for (const [rowid, value] of rows) row(rowid, value);
  };

/** With `requireAll`, null when the rows missed a rowid the sessions list (a raw read that went astray). */
function digestsOf(
  sessions: readonly DigestSession[],
  rows: Rows,
  requireAll: boolean,
): Map<string, string> | null {
  const digests: ContentDigest[] = [];
  const listed: number[][] = [];
  let count = 0;
  let max = 0;
  let min = 0;
  for (const session of sessions) {
    const digest = new ContentDigest();
    digest.doc(session.doc());
    digests.push(digest);
    const rowids = [...session.rowids()];
    listed.push(rowids);
    count += rowids.length;
    for (const rowid of rowids) {
      if (rowid > max) max = rowid;
      if (rowid < min) min = rowid;
    }
  }
  const { sessionOf, distinct } = rowidIndex(listed, count, min < 0 ? Number.POSITIVE_INFINITY : max);
  let fed = 0;
  if (count > 0) {
    rows((rowid, value) => {
      const index = sessionOf(rowid);
      if (index < 0) return;
      digests[index]!.bubble(rowid, value);
      fed++;
    });
  }
  if (requireAll && fed !== distinct) return null;
  sessions.forEach((session, index) => {
    for (const [rowid, value] of session.diffs?.() ?? []) digests[index]!.diff(rowid, value);
  });
  return new Map(sessions.map((session, index) => [session.composerId, digests[index]!.digest()]));
}

/** Rowid → index of the session listing it (-1 for none), and how many rowids are listed. */
function rowidIndex(
  listed: readonly number[][],
  count: number,
  max: number,
): { sessionOf: (rowid: number) => number; distinct: number } {
  if (max <= 4 * count + 65_536) {
    const dense = new Int32Array(max + 1).fill(-1);
    let distinct = 0;
    listed.forEach((rowids, index) => {
      for (const rowid of rowids) {
        if (dense[rowid] === -1) distinct++;
        dense[rowid] = index;
      }
    });
    return { sessionOf: (rowid) => (rowid >= 0 && rowid <= max ? dense[rowid]! : -1), distinct };
  }
  const map = new Map<number, number>();
  listed.forEach((rowids, index) => {
    for (const rowid of rowids) map.set(rowid, index);
  });
  return { sessionOf: (rowid) => map.get(rowid) ?? -1, distinct: map.size };
}
