import { closeSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  readWalIndexHeader,
  snapshotFrames,
  walSnapshotOf,
} from '../../../src/extract/sqlite/wal-snapshot-frames.js';
import { tempDir } from '../../helpers/run-cli.js';

function walDb(): { path: string; writer: Database.Database } {
  const path = join(tempDir('etl-wal-frames-'), 'state.vscdb');
  const writer = new Database(path);
  writer.pragma('journal_mode = WAL');
  writer.pragma('wal_autocheckpoint = 0');
  writer.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  return { path, writer };
}

/** The `-shm` header read through a descriptor of its own. */
function headerOf(path: string): Buffer | null {
  const fd = openSync(`${path}-shm`, 'r');
  try {
    return readWalIndexHeader(fd);
  } finally {
    closeSync(fd);
  }
}

describe('WAL snapshot frames', () => {
  it('names the newest commit only while no commit comes between the two headers', () => {
    const { path, writer } = walDb();
    writer.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)').run('a', 'x');
    const before = headerOf(path);
    const snapshot = walSnapshotOf(before, headerOf(path));
    expect(snapshot?.pageSize).toBe(4096);
    // Every frame in the file is committed: the WAL is as long as the snapshot.
    expect(snapshot?.mxFrame).toBe((statSync(`${path}-wal`).size - 32) / (24 + 4096));
    writer.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)').run('b', 'y');
    expect(walSnapshotOf(before, headerOf(path))).toBeNull();
    writer.close();
  });

  it('refuses a torn or unknown header', () => {
    const { path, writer } = walDb();
    const header = headerOf(path)!;
    const torn = Buffer.from(header);
    torn[60]! ^= 1;
    expect(walSnapshotOf(torn, torn)).toBeNull();
    const unknown = Buffer.from(header);
    unknown[0]! ^= 1;
    unknown[48]! ^= 1;
    expect(walSnapshotOf(unknown, unknown)).toBeNull();
    expect(walSnapshotOf(null, header)).toBeNull();
    writer.close();
  });

  it('maps each page to its newest frame in the snapshot; none after a restart; null for a short WAL', () => {
    const { path, writer } = walDb();
    const put = writer.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)');
    put.run('a', 'x');
    put.run('b', 'y');
    const snapshot = walSnapshotOf(headerOf(path), headerOf(path))!;
    const fd = openSync(`${path}-wal`, 'r');
    try {
      const frames = snapshotFrames(fd, snapshot)!;
      // Every commit rewrote the table's root page: its newest frame is the last commit's.
      expect(frames.size).toBeLessThan(snapshot.mxFrame);
      expect(Math.max(...frames.values())).toBe(32 + (snapshot.mxFrame - 1) * (24 + 4096) + 24);
      const otherSalt = { ...snapshot, salt: Buffer.alloc(8, 7) };
      expect(snapshotFrames(fd, otherSalt)).toEqual(new Map());
      expect(snapshotFrames(fd, { ...snapshot, mxFrame: snapshot.mxFrame + 5 })).toBeNull();
    } finally {
      closeSync(fd);
    }
    writer.close();
  });
});
