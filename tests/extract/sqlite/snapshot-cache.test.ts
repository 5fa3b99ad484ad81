import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { json, StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import { SnapshotCache } from '../../../src/extract/sqlite/snapshot-cache.js';
import { openSqliteSnapshot, type SqliteSnapshot } from '../../../src/extract/sqlite/sqlite-snapshot.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { tempDir } from '../../helpers/run-cli.js';

const count = (db: Database.Database): number =>
  (db.prepare('SELECT count(*) AS n FROM cursorDiskKV').get() as { n: number }).n;

let temp: PrivateTempDir;
afterEach(() => temp?.dispose());

function buildDb(wal: boolean): string {
  const path = join(tempDir('etl-snapshot-cache-'), 'state.vscdb');
  const builder = new StateDbBuilder(path, { wal });
  builder.put('cursorDiskKV', 'bubbleId:s:1', json({ type: 1 }));
  builder.close();
  return path;
}

function addRow(path: string): void {
  const writer = new Database(path);
  writer.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run('bubbleId:s:2', '{}');
  writer.close();
}

describe('SnapshotCache', () => {
  it('releases the least recently used copy beyond its bound; it reopens on use, same snapshot', async () => {
    temp = PrivateTempDir.create();
    const paths = [buildDb(false), buildDb(false), buildDb(false)];
    const cache = new SnapshotCache(2);
    const get = (path: string) => cache.get(path, () => openSqliteSnapshot(path, temp, 'composer'));
    const first = await get(paths[0]!);
    const firstDb = first.db;
    const second = await get(paths[1]!);
    const secondDb = second.db;
    await get(paths[0]!);
    await get(paths[2]!);
    // paths[1] was the least recently used: released, while paths[0] kept its connection.
    expect(secondDb.open).toBe(false);
    expect(firstDb.open).toBe(true);
    // The source changed after the snapshot; the reopened private copy still reads the snapshot.
    addRow(paths[1]!);
    expect(second.method).toBe('serialized-copy');
    expect(count(second.db)).toBe(1);
    // Re-getting a locator never opens a second snapshot of it.
    expect(await get(paths[1]!)).toBe(second);
    cache.close();
    expect(firstDb.open).toBe(false);
  });

  it('closeWhere ends the in-place reads it selects, so their writer commits; the others stay open', async () => {
    temp = PrivateTempDir.create();
    const [inPlace, copied] = [buildDb(false), buildDb(false)];
    const cache = new SnapshotCache(Number.POSITIVE_INFINITY);
    const live = await cache.get(inPlace, () =>
      openSqliteSnapshot(inPlace, temp, 'composer', undefined, true),
    );
    const copy = await cache.get(copied, () => openSqliteSnapshot(copied, temp, 'composer'));
    const liveDb = live.db;
    cache.closeWhere((snapshot) => snapshot.method === 'shared-lock-read');
    expect(liveDb.open).toBe(false);
    expect(copy.db.open).toBe(true);
    const writer = new Database(inPlace);
    writer.pragma('busy_timeout = 0');
    writer.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run('bubbleId:s:2', '{}');
    writer.close();
    // Forgotten: the next get opens a new snapshot, which sees the write.
    const again = await cache.get(inPlace, () =>
      openSqliteSnapshot(inPlace, temp, 'composer', undefined, true),
    );
    expect(again).not.toBe(live);
    expect(count(again.db)).toBe(2);
    cache.close();
  });

  it('concurrent gets of one locator open it once and share the snapshot (none is left open, orphaned)', async () => {
    temp = PrivateTempDir.create();
    const path = buildDb(false);
    const cache = new SnapshotCache(2);
    const opened: SqliteSnapshot[] = [];
    const open = async () => {
      const snapshot = await openSqliteSnapshot(path, temp, 'composer');
      opened.push(snapshot);
      return snapshot;
    };
    const [a, b] = await Promise.all([cache.get(path, open), cache.get(path, open)]);
    expect(opened).toHaveLength(1);
    expect(a).toBe(b);
    const db = a.db;
    cache.close();
    expect(db.open).toBe(false);
  });

  it('a failed open is not cached: the next get opens again', async () => {
    temp = PrivateTempDir.create();
    const path = buildDb(false);
    const cache = new SnapshotCache(2);
    await expect(cache.get(path, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const snapshot = await cache.get(path, () => openSqliteSnapshot(path, temp, 'composer'));
    expect(count(snapshot.db)).toBe(1);
    cache.close();
  });

  it('a released WAL snapshot keeps its pinned read transaction', async () => {
    temp = PrivateTempDir.create();
    const path = buildDb(true);
    const snapshot = await openSqliteSnapshot(path, temp, 'composer');
    expect(snapshot.method).toBe('wal-read-transaction');
    const db = snapshot.db;
    snapshot.release();
    addRow(path);
    expect(snapshot.db).toBe(db);
    expect(count(snapshot.db)).toBe(1);
    snapshot.close();
  });

  it('a released copy closes its connection until the next read', async () => {
    temp = PrivateTempDir.create();
    const snapshot = await openSqliteSnapshot(buildDb(false), temp, 'composer');
    const db = snapshot.db;
    snapshot.release();
    expect(db.open).toBe(false);
    expect(count(snapshot.db)).toBe(1);
    expect(snapshot.db).not.toBe(db);
    snapshot.close();
  });
});
