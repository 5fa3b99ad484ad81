import {
  copyFileSync,
  existsSync,
  fstatSync,
  readdirSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { json, StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import { openSqliteSnapshot, rawFileOf } from '../../../src/extract/sqlite/sqlite-snapshot.js';
import { IoError } from '../../../src/shared/errors.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { tempDir } from '../../helpers/run-cli.js';

const count = (db: Database.Database): number =>
  (db.prepare('SELECT count(*) AS n FROM cursorDiskKV').get() as { n: number }).n;

let temp: PrivateTempDir;
afterEach(() => temp?.dispose());

function buildDb(wal: boolean): string {
  const path = join(tempDir('etl-snapshot-'), 'state.vscdb');
  const builder = new StateDbBuilder(path, { wal });
  builder.put('cursorDiskKV', 'bubbleId:s:1', json({ type: 1 }));
  builder.close();
  return path;
}

describe('Consistent SQLite snapshots', () => {
  it('a live WAL writer is not blocked, and the reader keeps one consistent snapshot', async () => {
    const path = buildDb(true);
    const writer = new Database(path);
    writer.pragma('busy_timeout = 0');
    temp = PrivateTempDir.create();
    const snapshot = await openSqliteSnapshot(path, temp, 'composer');
    expect(snapshot.method).toBe('wal-read-transaction');
    expect(count(snapshot.db)).toBe(1);
    // busy_timeout 0: a blocked writer would throw SQLITE_BUSY immediately instead of waiting.
    writer.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run('bubbleId:s:2', '{}');
    expect(count(writer)).toBe(2);
    expect(count(snapshot.db)).toBe(1);
    snapshot.close();
    writer.close();
    const fresh = new Database(path, { readonly: true });
    expect(count(fresh)).toBe(2);
    fresh.close();
  });

  // Small files are written from their serialized image; past 8 MiB the backup API bounds memory.
  it.each([
    { rows: 1, method: 'serialized-copy' },
    { rows: 3, method: 'online-backup' },
  ])(
    'a non-WAL database ($method) is copied into a private 0700/0600 temp dir, removed on dispose',
    async ({ rows, method }) => {
      const path = buildDb(false);
      const writer = new Database(path);
      for (let i = 1; i < rows; i++)
        writer
          .prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)')
          .run(`bubbleId:s:big${i}`, Buffer.alloc(5 << 20, i));
      writer.close();
      temp = PrivateTempDir.create();
      const snapshot = await openSqliteSnapshot(path, temp, 'composer');
      expect(snapshot.method).toBe(method);
      expect(count(snapshot.db)).toBe(rows);
      expect(statSync(temp.path).mode & 0o777).toBe(0o700);
      const copies = readdirSync(temp.path).filter((name) => name.endsWith('snapshot.sqlite'));
      expect(copies).toHaveLength(1);
      expect(statSync(join(temp.path, copies[0]!)).mode & 0o777).toBe(0o600);
      const fresh = new Database(path);
      fresh.prepare('DELETE FROM cursorDiskKV').run();
      fresh.close();
      expect(count(snapshot.db)).toBe(rows);
      snapshot.close();
      temp.dispose();
      expect(existsSync(temp.path)).toBe(false);
    },
  );

  it('a rollback-journal database read in place copies nothing; its shared lock holds a commit until close', async () => {
    const path = buildDb(false);
    temp = PrivateTempDir.create();
    const snapshot = await openSqliteSnapshot(path, temp, 'composer', undefined, true);
    expect(snapshot.method).toBe('shared-lock-read');
    expect(readdirSync(temp.path).filter((name) => name.endsWith('.sqlite'))).toEqual([]);
    const writer = new Database(path);
    writer.pragma('busy_timeout = 0');
    writer.exec('BEGIN IMMEDIATE');
    writer.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run('bubbleId:s:2', '{}');
    // busy_timeout 0: the commit that needs the file while the snapshot's shared lock is held fails at once.
    expect(() => writer.exec('COMMIT')).toThrow(/locked|busy/i);
    expect(count(snapshot.db)).toBe(1);
    snapshot.close();
    writer.exec('COMMIT');
    expect(count(writer)).toBe(2);
    writer.close();
  });

  it('an unreadable database fails with SOURCE_UNREADABLE (no path in details) and leaves no copy behind', async () => {
    const path = join(tempDir('etl-snapshot-bad-'), 'state.vscdb');
    writeFileSync(path, 'this is not a sqlite database, just bytes'.repeat(200));
    temp = PrivateTempDir.create();
    let thrown: unknown;
    try {
      await openSqliteSnapshot(path, temp, 'composer');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(IoError);
    expect((thrown as IoError).code).toBe('SOURCE_UNREADABLE');
    expect(JSON.stringify((thrown as IoError).details)).not.toContain(path);
    expect(readdirSync(temp.path).filter((name) => name.endsWith('.sqlite'))).toEqual([]);
  });

  it('retries an I/O failure (WSL /mnt/c) from a byte copy that keeps the WAL rows', async () => {
    const path = buildDb(true);
    const writer = new Database(path);
    writer.pragma('wal_autocheckpoint = 0');
    writer.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run('bubbleId:s:2', '{}');
    temp = PrivateTempDir.create();
    const failing = (code: string) => () => {
      throw Object.assign(new Error('disk I/O error'), { code });
    };
    const snapshot = await openSqliteSnapshot(path, temp, 'composer', failing('SQLITE_IOERR_SHORT_READ'));
    expect(snapshot.method).toBe('file-copy');
    expect(count(snapshot.db)).toBe(2);
    snapshot.close();
    expect(existsSync(`${path}-wal`)).toBe(true);
    writer.close();
    // Anything but an I/O failure is not retried.
    await expect(openSqliteSnapshot(path, temp, 'composer', failing('SQLITE_CORRUPT'))).rejects.toMatchObject(
      {
        code: 'SOURCE_UNREADABLE',
        details: { reason: 'SQLITE_CORRUPT' },
      },
    );
  });

  describe('rawFileOf: the file whose bytes are the snapshot', () => {
    it('a rollback-journal file read in place: the file SQLite opened, until close', async () => {
      const path = buildDb(false);
      temp = PrivateTempDir.create();
      const snapshot = await openSqliteSnapshot(path, temp, 'composer', undefined, true);
      const raw = rawFileOf(snapshot.db);
      expect(raw?.wal).toBeUndefined();
      expect(fstatSync(raw!.fd).ino).toBe(statSync(path).ino);
      snapshot.close();
      expect(rawFileOf(snapshot.db)).toBeUndefined();
      expect(() => fstatSync(raw!.fd)).toThrow();
    });

    it('a WAL file with the frames its snapshot sees, not those committed after the read began', async () => {
      const path = buildDb(true);
      temp = PrivateTempDir.create();
      const quiet = await openSqliteSnapshot(path, temp, 'composer');
      expect(rawFileOf(quiet.db)?.wal).toBeUndefined();
      quiet.close();
      const writer = new Database(path);
      writer.pragma('wal_autocheckpoint = 0');
      writer.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run('bubbleId:s:2', '{}');
      const busy = await openSqliteSnapshot(path, temp, 'composer');
      const frames = rawFileOf(busy.db)?.wal?.frames;
      expect(frames?.size).toBeGreaterThan(0);
      writer.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run('bubbleId:s:3', '{}');
      expect(count(busy.db)).toBe(2);
      expect(rawFileOf(busy.db)?.wal?.frames).toBe(frames);
      busy.close();
      const later = await openSqliteSnapshot(path, temp, 'composer');
      expect(Math.max(...rawFileOf(later.db)!.wal!.frames.values())).toBeGreaterThan(
        Math.max(...frames!.values()),
      );
      later.close();
      writer.close();
    });

    it('none when the caller never reads raw bytes; the read transaction still pins its snapshot', async () => {
      const path = buildDb(true);
      temp = PrivateTempDir.create();
      const writer = new Database(path);
      writer.pragma('wal_autocheckpoint = 0');
      writer.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run('bubbleId:s:2', '{}');
      const snapshot = await openSqliteSnapshot(path, temp, 'composer', undefined, false, false);
      expect(snapshot.method).toBe('wal-read-transaction');
      expect(rawFileOf(snapshot.db)).toBeUndefined();
      writer.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run('bubbleId:s:3', '{}');
      expect(count(snapshot.db)).toBe(2);
      snapshot.close();
      const raw = await openSqliteSnapshot(path, temp, 'composer');
      expect(rawFileOf(raw.db)?.wal?.frames.size).toBeGreaterThan(0);
      raw.close();
      writer.close();
    });

    it('not a private copy, nor a file replaced between the stat and SQLite opening it', async () => {
      const path = buildDb(false);
      temp = PrivateTempDir.create();
      const copy = await openSqliteSnapshot(path, temp, 'composer');
      expect(rawFileOf(copy.db)).toBeUndefined();
      copy.close();
      const other = `${path}.other`;
      copyFileSync(path, other);
      const replacing = (at: string): Database.Database => {
        renameSync(other, at);
        return new Database(at, { readonly: true, fileMustExist: true });
      };
      const replaced = await openSqliteSnapshot(path, temp, 'composer', replacing, true);
      expect(replaced.method).toBe('shared-lock-read');
      expect(rawFileOf(replaced.db)).toBeUndefined();
      replaced.close();
    });
  });
});
