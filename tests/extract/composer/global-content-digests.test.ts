import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { globalContentDigests } from '../../../src/extract/composer/global-content-digests.js';
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
});
