import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { rawText, StateDbBuilder, sqlNull } from '../../../fixtures/composer/state-db-builder.js';
import { digestJobOf, EarlyContentDigests } from '../../../src/extract/composer/early-content-digests.js';
import { scanGlobalSessions } from '../../../src/extract/composer/global-catalog.js';
import { laneDigest, laneDigests } from '../../../src/extract/composer/lane-content-digests.js';
import { ContentDigest } from '../../../src/extract/composer/session-fingerprint.js';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { HydrationBudget } from '../../../src/extract/sqlite/keyset-pager.js';
import { shareCell } from '../../../src/extract/sqlite/root-share.js';
import { openSqliteSnapshot } from '../../../src/extract/sqlite/sqlite-snapshot.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { tempDir } from '../../helpers/run-cli.js';
import { scriptedWorker } from '../../helpers/scripted-worker.js';

/**
 * Twelve sessions whose rows follow each other (most lie under one child of the root page) and one
 * whose rows are spread over the whole table, with docs, a NULL doc, a missing one and diff rows;
 * a session nested in s4's key range (`s4:x`), a BLOB key and a key that is not UTF-8.
 */
function buildSource(wal: boolean): { path: string; close: () => void } {
  const path = join(tempDir('etl-lane-digests-'), 'state.vscdb');
  const builder = new StateDbBuilder(path, { tables: ['cursorDiskKV'], wal, pageSize: 1024 });
  const { db } = builder;
  db.transaction(() => {
    for (let s = 0; s < 12; s++) {
      if (s !== 3) builder.composerData(`s${s}`, s === 5 ? sqlNull : rawText(`{"s":${s}}`));
      for (let i = 0; i < 120; i++) {
        const value = `${s}/${i};`.repeat(20 + (i % 9) * 30);
        builder.bubble(`s${s}`, String(i), i % 37 === 0 ? sqlNull : rawText(value));
        if (i % 10 === 0) builder.bubble('spread', `${s}-${i}`, rawText(`spread ${s} ${i}`));
      }
      builder.put('cursorDiskKV', `codeBlockDiff:s${s}:1`, rawText(`diff ${s}`));
      if (s === 4) {
        builder.composerData('s4:x', rawText('{"nested":true}'));
        for (let i = 0; i < 30; i++) builder.bubble('s4:x', String(i), rawText(`nested ${i};`.repeat(40)));
      }
    }
    db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)').run(
      Buffer.from('bubbleId:s6:blob-key'),
      'a BLOB key: outside every TEXT key range',
    );
    db.prepare(
      "INSERT INTO cursorDiskKV (key, value) VALUES (CAST(x'627562626c6549643a73363aff' AS TEXT), ?)",
    ).run('a bubble ID that is not UTF-8');
  })();
  if (!wal) {
    db.close();
    return { path, close: () => {} };
  }
  // Rows changed in place after a checkpoint: their pages are read from the WAL's frames, while
  // this connection stays open (the last one to close would checkpoint them into the file).
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma('wal_autocheckpoint = 0');
  for (const s of [2, 7, 11])
    db.prepare(`UPDATE cursorDiskKV SET value = 'changed ' || value WHERE key = 'bubbleId:s${s}:60'`).run();
  return { path, close: () => db.close() };
}

async function withSnapshot<T>(path: string, use: (db: Database.Database) => T): Promise<T> {
  const temp = PrivateTempDir.create();
  const snapshot = await openSqliteSnapshot(path, temp, 'composer', undefined, true);
  try {
    return use(snapshot.db);
  } finally {
    snapshot.close();
    temp.dispose();
  }
}

/** Per session: its fingerprint and content digest as SQLite's queries alone give them. */
function sqliteDigests(path: string): Map<string, [string, string]> {
  const plain = new Database(path, { readonly: true });
  try {
    const digests = new Map<string, [string, string]>();
    for (const entry of scanGlobalSessions(plain, new HydrationBudget(DEFAULT_READ_LIMITS)))
      digests.set(entry.composerId, [entry.fingerprint.get(), entry.fingerprint.content(true)!]);
    return digests;
  } finally {
    plain.close();
  }
}

const DOC_SQL = "SELECT value FROM cursorDiskKV WHERE key = 'composerData:' || ?";

describe('laneDigests', () => {
  it('digests a session whose every row lies in one half it walked, and no session spread over two', async () => {
    const { path } = buildSource(false);
    await withSnapshot(path, (db) => {
      const job = { ...digestJobOf(db, new Set())!, share: shareCell() };
      const doc = (id: string): Buffer | null | undefined =>
        db.prepare(DOC_SQL).pluck().get(id) as Buffer | null | undefined;
      // Nothing else claims the root: this thread walks it all, a half at a time.
      const lane = laneDigests(job, doc);
      const rows = db
        .prepare(
          "SELECT substr(key, 10, instr(substr(key, 10), ':') - 1) AS id, rowid AS r, value AS v FROM cursorDiskKV WHERE typeof(key) = 'text' AND key LIKE 'bubbleId:%' ORDER BY rowid",
        )
        .all() as { id: string; r: number; v: Buffer | string | null }[];
      let whole = 0;
      for (let s = 0; s < 12; s++) {
        const id = `s${s}`;
        const own = rows.filter((row) => row.id === id);
        const session = lane.get(id)!;
        expect(session.rows).toBe(own.length);
        const stats = [own.length, own.at(-1)!.r, own.reduce((sum, row) => sum + row.r, 0)] as const;
        const diffs = (): [number, Buffer][] => [[s, Buffer.from(`diff ${s}`)]];
        if (session.digest === null) {
          expect(laneDigest(session, stats, diffs)).toBeUndefined();
          continue;
        }
        whole++;
        // A row it did not see (one more, or another rowid) leaves the session to SQLite.
        expect(laneDigest(session, [stats[0] + 1, stats[1], stats[2]], diffs)).toBeUndefined();
        expect(laneDigest(session, [stats[0], stats[1], stats[2] + 1], diffs)).toBeUndefined();
        const expected = new ContentDigest();
        expected.doc(doc(id));
        for (const row of own) expected.bubble(row.r, row.v === null ? null : Buffer.from(row.v));
        expected.diff(s, Buffer.from(`diff ${s}`));
        expect(laneDigest(session, stats, diffs), id).toBe(expected.digest());
      }
      expect(whole).toBeGreaterThan(6);
      expect(lane.get('spread')!.digest).toBeNull();
    });
  });

  it('gives nothing when its walk meets a page it cannot read: the caller reads those sessions alone', async () => {
    await withSnapshot(buildSource(false).path, (db) => {
      const job = digestJobOf(db, new Set())!;
      const cut = { ...job, shape: { ...job.shape, pageCount: job.shape.rootPage }, share: shareCell() };
      expect(laneDigests(cut, () => undefined).size).toBe(0);
    });
  });

  it('walks nothing without a share cell', async () => {
    await withSnapshot(buildSource(false).path, (db) => {
      expect(laneDigests(digestJobOf(db, new Set())!, () => undefined).size).toBe(0);
    });
  });
});

describe("a pass's digests with the main thread's part", () => {
  // A worker that starts its walk late: the main thread walks the root first, a half at a time.
  const owned = pathToFileURL(join(process.cwd(), 'dist/src/extract/composer/owned-content-digests.js'));
  const late = scriptedWorker(
    'late',
    `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
try { port.postMessage({ digests: ownedContentDigests(job) }); }
finally { Atomics.store(done, 0, 1); Atomics.notify(done, 0); port.close(); }`,
    `import { ownedContentDigests } from ${JSON.stringify(owned.href)};`,
  );

  it.each([
    ['starting late', false, late],
    ['starting late, WAL', true, late],
    ['walking beside it', false, undefined],
    ['walking beside it, WAL', true, undefined],
  ])("equal SQLite's for every session (worker %s)", async (_name, wal, workerUrl) => {
    const { path, close } = buildSource(wal);
    const expected = sqliteDigests(path);
    const got = await withSnapshot(path, (db) => {
      const pass = EarlyContentDigests.spawn(workerUrl);
      expect(pass).toBeDefined();
      const digests = new Map<string, [string, string]>();
      const budget = new HydrationBudget(DEFAULT_READ_LIMITS);
      for (const entry of scanGlobalSessions(db, budget, undefined, pass))
        digests.set(entry.composerId, [entry.fingerprint.get(), entry.fingerprint.content(true)!]);
      return digests;
    });
    close();
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [id, pair] of expected) expect(got.get(id), id).toEqual(pair);
  });
});
