import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  CHUNK_VALUE_BYTES,
  chunkedBubbleRows,
  globalContentDigests,
} from '../../../src/extract/composer/global-content-digests.js';
import { ContentDigest } from '../../../src/extract/composer/session-fingerprint.js';
import { openSqliteSnapshot, rawFileOf } from '../../../src/extract/sqlite/sqlite-snapshot.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { tempDir } from '../../helpers/run-cli.js';

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

  it("reads the file itself when it is the snapshot: SQLite's digests, a same-length UPDATE seen", async () => {
    const path = join(tempDir('etl-digests-'), 'state.vscdb');
    const writer = new Database(path);
    writer.pragma('page_size = 1024');
    writer.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
    const put = writer.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
    for (let i = 0; i < 300; i++) put.run(`bubbleId:${i % 2 === 0 ? 'a' : 'b'}:${i}`, `${i} `.repeat(i * 7));
    put.run('composerData:a', '{"doc":1}');
    const rowidsOf = (db: Database.Database, id: string): number[] =>
      db
        .prepare('SELECT rowid FROM cursorDiskKV WHERE key >= ? AND key < ?')
        .pluck()
        .all(`bubbleId:${id}:`, `bubbleId:${id};`) as number[];
    const digestsOf = async (): Promise<{ raw: Map<string, string>; sqlite: Map<string, string> }> => {
      const temp = PrivateTempDir.create();
      const snapshot = await openSqliteSnapshot(path, temp, 'composer', undefined, true);
      expect(rawFileOf(snapshot.db)).toBeDefined();
      const sessions = (db: Database.Database) =>
        ['a', 'b', 'gone'].map((id) => ({
          composerId: id,
          doc: () => undefined,
          // A rowid no row holds: the raw read misses it and SQLite's reading decides.
          rowids: () => [...rowidsOf(db, id), ...(id === 'gone' ? [99_999] : [])],
        }));
      const raw = globalContentDigests(snapshot.db, sessions(snapshot.db));
      snapshot.close();
      temp.dispose();
      const plain = new Database(path, { readonly: true });
      const sqlite = globalContentDigests(plain, sessions(plain));
      plain.close();
      return { raw, sqlite };
    };
    const before = await digestsOf();
    expect(before.raw).toEqual(before.sqlite);
    writer
      .prepare("UPDATE cursorDiskKV SET value = '9' || substr(value, 2) WHERE key = 'bubbleId:b:201'")
      .run();
    const after = await digestsOf();
    expect(after.raw).toEqual(after.sqlite);
    expect(after.raw.get('b')).not.toBe(before.raw.get('b'));
    expect(after.raw.get('a')).toBe(before.raw.get('a'));
    writer.close();
  });

  it('reads a WAL file with the frames its snapshot sees: pages past the file, an UPDATE in the WAL', async () => {
    const path = join(tempDir('etl-digests-wal-'), 'state.vscdb');
    const writer = new Database(path);
    writer.pragma('journal_mode = WAL');
    writer.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
    const put = writer.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
    for (let i = 0; i < 200; i++) put.run(`bubbleId:a:${i}`, `${i} `.repeat(i * 9));
    writer.pragma('wal_checkpoint(TRUNCATE)');
    writer.pragma('wal_autocheckpoint = 0');
    for (let i = 0; i < 100; i++) put.run(`bubbleId:b:${i}`, `${i} `.repeat(i * 13));
    writer
      .prepare("UPDATE cursorDiskKV SET value = '9' || substr(value, 2) WHERE key = 'bubbleId:a:150'")
      .run();
    const sessions = (db: Database.Database) =>
      ['a', 'b'].map((id) => ({
        composerId: id,
        doc: () => undefined,
        rowids: () =>
          db
            .prepare('SELECT rowid FROM cursorDiskKV WHERE key >= ? AND key < ?')
            .pluck()
            .all(`bubbleId:${id}:`, `bubbleId:${id};`) as number[],
      }));
    const temp = PrivateTempDir.create();
    const snapshot = await openSqliteSnapshot(path, temp, 'composer');
    expect(rawFileOf(snapshot.db)?.wal?.frames.size).toBeGreaterThan(0);
    const plain = new Database(path, { readonly: true });
    plain.exec('BEGIN');
    plain.prepare('SELECT count(*) FROM cursorDiskKV').get();
    // Committed after both reads began: neither sees it.
    writer
      .prepare("UPDATE cursorDiskKV SET value = 'x' || substr(value, 2) WHERE key = 'bubbleId:b:50'")
      .run();
    const raw = globalContentDigests(snapshot.db, sessions(snapshot.db));
    expect(raw).toEqual(globalContentDigests(plain, sessions(plain)));
    // Session a's rows all lie in the file too: only its page in the WAL holds the UPDATE.
    const onlyA = (db: Database.Database) => sessions(db).slice(0, 1);
    expect(globalContentDigests(snapshot.db, onlyA(snapshot.db))).toEqual(
      globalContentDigests(plain, onlyA(plain)),
    );
    snapshot.close();
    temp.dispose();
    plain.close();
    writer.close();
    const fresh = new Database(path, { readonly: true });
    const now = globalContentDigests(fresh, sessions(fresh));
    fresh.close();
    expect(now.get('a')).toBe(raw.get('a'));
    expect(now.get('b')).not.toBe(raw.get('b'));
  });
});
