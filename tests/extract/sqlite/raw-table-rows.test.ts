import { closeSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { rawShape } from '../../../src/extract/composer/global-content-digests.js';
import { forEachRawRow, RawTableError } from '../../../src/extract/sqlite/raw-table-rows.js';
import {
  BackHalves,
  frontClaims,
  type RootShare,
  shareCell,
} from '../../../src/extract/sqlite/root-share.js';
import { tempDir } from '../../helpers/run-cli.js';

const PREFIX = Buffer.from('bubbleId:');

/** What SQLite answers for the rows the raw reader must yield, in rowid order. */
function sqliteRows(db: Database.Database): [number, string | null][] {
  const rows = db
    .prepare(
      `SELECT rowid AS r, CAST(value AS BLOB) AS v FROM cursorDiskKV
        WHERE substr(CAST(key AS BLOB), 1, 9) = CAST('bubbleId:' AS BLOB) ORDER BY rowid`,
    )
    .all() as { r: number; v: Buffer | null }[];
  return rows.map(({ r, v }) => [r, v === null ? null : v.toString('hex')]);
}

function rawRows(path: string, db: Database.Database, share?: RootShare): [number, string | null][] {
  const shape = rawShape(db);
  if (shape === undefined) throw new Error('no shape');
  const out: [number, string | null][] = [];
  const fd = openSync(path, 'r');
  try {
    forEachRawRow(
      { fd },
      shape,
      PREFIX,
      (rowid, value) => {
        out.push([rowid, value === null ? null : Buffer.from(value).toString('hex')]);
      },
      undefined,
      share,
    );
  } finally {
    closeSync(fd);
  }
  return out;
}

function text(seed: number, length: number): string {
  let s = '';
  while (s.length < length) s += `${seed}-${s.length};`;
  return s.slice(0, length);
}

function buildDb(pageSize: number): { path: string; db: Database.Database } {
  const path = join(tempDir('etl-raw-rows-'), 'state.vscdb');
  const db = new Database(path);
  db.pragma(`page_size = ${pageSize}`);
  db.exec('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  db.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  const put = db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < 600; i++) {
      // Values from a few bytes to several overflow pages, as text and as blobs.
      const length = [5, 300, 1500, 5000, 70_000][i % 5]!;
      const value = i % 3 === 0 ? Buffer.from(text(i, length)) : text(i, length);
      put.run(`bubbleId:c${i % 7}:${i}`, i % 11 === 0 ? null : value);
      if (i % 50 === 0) put.run(`composerData:c${i}`, text(i, 2000));
    }
    put.run(Buffer.from('bubbleId:blob-key:1'), 'a blob key with the prefix');
    put.run(`bubbleId:long:${'k'.repeat(9000)}`, 'a key longer than a page');
    put.run('bubbleIdX', 'not the prefix');
  })();
  return { path, db };
}

describe('forEachRawRow', () => {
  it.each([512, 1024, 4096, 65536])(
    'yields what SQLite reads, in rowid order, from a %i-byte-page file: overflow chains, blob keys, NULLs',
    (pageSize) => {
      const { path, db } = buildDb(pageSize);
      const expected = sqliteRows(db);
      expect(expected.length).toBe(602);
      expect(rawRows(path, db)).toEqual(expected);
      db.close();
    },
  );

  it('sees a same-length in-place UPDATE, deletes and inserts reusing freed pages, as SQLite does', () => {
    const { path, db } = buildDb(1024);
    const before = rawRows(path, db);
    const rowid = db
      .prepare("SELECT rowid FROM cursorDiskKV WHERE key = 'bubbleId:c4:4'")
      .pluck()
      .get() as number;
    const old = db.prepare('SELECT value FROM cursorDiskKV WHERE rowid = ?').pluck().get(rowid) as string;
    db.prepare('UPDATE cursorDiskKV SET value = ? WHERE rowid = ?').run(`9${old.slice(1)}`, rowid);
    db.exec("DELETE FROM cursorDiskKV WHERE key LIKE 'bubbleId:c5:%'");
    db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run('bubbleId:new:1', text(1, 9000));
    const after = rawRows(path, db);
    expect(after).toEqual(sqliteRows(db));
    expect(after).not.toEqual(before);
    const changed = after.find(([r]) => r === rowid)!;
    expect(changed[1]).not.toBe(before.find(([r]) => r === rowid)![1]);
    db.close();
  });

  it.each([512, 4096])(
    'with `only`, yields those rowids alone, each with its key as SQLite stores it (%i-byte pages)',
    (pageSize) => {
      const { path, db } = buildDb(pageSize);
      const all = db
        .prepare(
          'SELECT rowid AS r, CAST(key AS BLOB) AS k, typeof(key) AS t FROM cursorDiskKV ORDER BY rowid',
        )
        .all() as { r: number; k: Buffer; t: string }[];
      // Every seventh row, the last, the BLOB key, rows without the prefix, and rowids no row holds.
      const picked = all.filter((row, i) => i % 7 === 0 || i === all.length - 1 || row.t === 'blob');
      const only = [-5, 0, ...picked.map((row) => row.r), 10_000];
      const wanted = new Set(only);
      const expected = all
        .filter((row) => wanted.has(row.r) && row.k.subarray(0, PREFIX.length).equals(PREFIX))
        .map((row) => [row.r, row.k.toString('hex'), row.t === 'text']);
      expect(expected.length).toBeGreaterThan(50);
      const seen: [number, string, boolean][] = [];
      const shape = rawShape(db)!;
      const fd = openSync(path, 'r');
      try {
        forEachRawRow(
          { fd },
          shape,
          PREFIX,
          (rowid, _value, key, textKey) => {
            seen.push([rowid, Buffer.from(key).toString('hex'), textKey]);
          },
          only,
        );
      } finally {
        closeSync(fd);
      }
      expect(seen).toEqual(expected);
      expect(seen.filter(([, , textKey]) => !textKey)).toHaveLength(1);
      db.close();
    },
  );

  it.each([512, 4096])(
    'with a shared root, two walks read every row once, each child in rowid order (%i-byte pages)',
    (pageSize) => {
      const { path, db } = buildDb(pageSize);
      const expected = sqliteRows(db);
      const cell = shareCell();
      const front = frontClaims(cell);
      let claimed = 0;
      const head = rawRows(path, db, { next: (children) => (claimed++ < 3 ? front.next(children) : null) });
      const back = new BackHalves(cell);
      const tail = rawRows(path, db, back);
      expect(rawRows(path, db, frontClaims(cell))).toEqual([]);
      expect(back.range).toBeGreaterThan(1);
      expect(head).toEqual(expected.slice(0, head.length));
      expect(head.length).toBeGreaterThan(0);
      // The back's later halves lie below its earlier ones.
      expect(tail).not.toEqual(expected.slice(head.length));
      expect([...head, ...tail].sort((a, b) => a[0] - b[0])).toEqual(expected);
      db.close();
    },
  );

  it('leaves a value that is not text, blob or NULL to SQLite', () => {
    const { path, db } = buildDb(4096);
    db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run('bubbleId:n:1', 42);
    expect(() => rawRows(path, db)).toThrow(RawTableError);
    db.close();
  });

  it('reports a file shorter than its snapshot, or not a database, instead of reading past it', () => {
    const { path, db } = buildDb(4096);
    const shape = rawShape(db)!;
    const fd = openSync(path, 'r');
    try {
      const pages = statSync(path).size / 4096;
      expect(() =>
        forEachRawRow({ fd }, { ...shape, pageCount: pages + 1, rootPage: pages + 1 }, PREFIX, () => {}),
      ).toThrow(RawTableError);
      expect(() => forEachRawRow({ fd }, { ...shape, pageSize: 1024 }, PREFIX, () => {})).toThrow(
        RawTableError,
      );
      // An index's pages are not a rowid table's.
      const index = db
        .prepare("SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'cursorDiskKV'")
        .pluck()
        .get() as number;
      expect(() => forEachRawRow({ fd }, { ...shape, rootPage: index }, PREFIX, () => {})).toThrow(
        RawTableError,
      );
    } finally {
      closeSync(fd);
    }
    db.close();
  });
});
