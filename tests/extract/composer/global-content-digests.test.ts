import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  CHUNK_VALUE_BYTES,
  chunkedBubbleRows,
  globalContentDigests,
} from '../../../src/extract/composer/global-content-digests.js';
import { ContentDigest } from '../../../src/extract/composer/session-fingerprint.js';

function table(): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  const put = db.prepare('INSERT INTO cursorDiskKV (rowid, key, value) VALUES (?, ?, ?)');
  put.run(3, 'bubbleId:a:2', Buffer.from('a-two'));
  put.run(1, 'bubbleId:a:1', Buffer.from('a-one'));
  put.run(2, 'bubbleId:b:1', null);
  put.run(5, 'bubbleId:a:3', Buffer.from('in a range, listed for no session'));
  put.run(4, 'composerData:a', Buffer.from('{"doc":1}'));
  return db;
}

function expected(doc: Buffer | null | undefined, rows: [number, Buffer | null][]): string {
  const digest = new ContentDigest();
  digest.doc(doc);
  for (const [rowid, value] of rows) digest.bubble(rowid, value);
  return digest.digest();
}

describe('globalContentDigests', () => {
  it('feeds each session its doc, then exactly the rows its rowids name, in rowid order', () => {
    const db = table();
    const digests = globalContentDigests(db, [
      { composerId: 'a', doc: () => Buffer.from('{"doc":1}'), rowids: () => [3, 1] },
      { composerId: 'b', doc: () => undefined, rowids: () => [2] },
      { composerId: 'c', doc: () => null, rowids: () => [] },
    ]);
    expect(digests).toEqual(
      new Map([
        [
          'a',
          expected(Buffer.from('{"doc":1}'), [
            [1, Buffer.from('a-one')],
            [3, Buffer.from('a-two')],
          ]),
        ],
        ['b', expected(undefined, [[2, null]])],
        ['c', expected(null, [])],
      ]),
    );
    db.close();
  });

  it('sees a same-length change of one value and nothing else', () => {
    const db = table();
    const sessions = [
      { composerId: 'a', doc: () => undefined, rowids: () => [1, 3] },
      { composerId: 'b', doc: () => undefined, rowids: () => [2] },
    ];
    const before = globalContentDigests(db, sessions);
    db.prepare('UPDATE cursorDiskKV SET value = ? WHERE rowid = 3').run(Buffer.from('a-TWO'));
    const after = globalContentDigests(db, sessions);
    expect(after.get('a')).not.toBe(before.get('a'));
    expect(after.get('b')).toBe(before.get('b'));
    db.close();
  });

  it('reads chunks equal to row-by-row reads: large, empty, NULL, text and odd-byte values', () => {
    {
      const db = new Database(':memory:');
      db.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
      const put = db.prepare('INSERT INTO cursorDiskKV (rowid, key, value) VALUES (?, ?, ?)');
      const values = (i: number): Buffer | string | number | null => {
        if (i % 97 === 0) return null;
        if (i % 89 === 0) return Buffer.alloc(0);
        if (i % 83 === 0) return Buffer.alloc(CHUNK_VALUE_BYTES + (i % 3), i % 256);
        if (i % 7 === 0) return Buffer.from([0, 0xff, 0xc3, i % 256, 0]);
        if (i % 5 === 0) return i * 1.5;
        return i % 2 === 0 ? `text ${i} é` : Buffer.from(`blob ${i}`);
      };
      const rowids: Record<string, number[]> = { a: [], b: [] };
      for (let i = 1; i <= 700; i++) {
        // Negative and sparse rowids, sessions interleaved, other keys between them.
        const rowid = i * 3 - 900;
        const session = i % 3 === 0 ? 'b' : 'a';
        if (i % 11 === 0) put.run(rowid, `composerData:x${i}`, Buffer.from('{}'));
        else if (i % 13 === 0) put.run(rowid, `bubbleId:z:${i}`, Buffer.from('no session'));
        else {
          put.run(rowid, `bubbleId:${session}:${i}`, values(i));
          rowids[session]!.push(rowid);
        }
      }
      const read = db.prepare('SELECT CAST(value AS BLOB) FROM cursorDiskKV WHERE rowid = ?').pluck();
      const reference = (ids: number[]): string =>
        expected(
          undefined,
          [...ids].sort((x, y) => x - y).map((id) => [id, read.get(id) as Buffer | null]),
        );
      const digests = globalContentDigests(db, [
        { composerId: 'a', doc: () => undefined, rowids: () => rowids.a! },
        { composerId: 'b', doc: () => undefined, rowids: () => rowids.b! },
      ]);
      expect(digests.get('a')).toBe(reference(rowids.a!));
      expect(digests.get('b')).toBe(reference(rowids.b!));
      // The chunks themselves, not a fallback: every bubble row, in rowid order, with its bytes.
      const rows = [...chunkedBubbleRows(db)];
      const all = db
        .prepare(
          "SELECT rowid AS r, CAST(value AS BLOB) AS v FROM cursorDiskKV WHERE key LIKE 'bubbleId:%' ORDER BY rowid",
        )
        .raw(true)
        .all() as [number, Buffer | null][];
      const hex = (v: Uint8Array | null): string | null =>
        v === null ? null : Buffer.from(v).toString('hex');
      expect(rows.map(([r, v]) => [r, hex(v)])).toEqual(all.map(([r, v]) => [r, hex(v)]));
      db.close();
    }
  });
});
