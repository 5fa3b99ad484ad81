import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BubbleKeyOwners } from '../../../src/extract/composer/bubble-key-owners.js';
import { digestJobOf } from '../../../src/extract/composer/early-content-digests.js';
import { scanGlobalSessions } from '../../../src/extract/composer/global-catalog.js';
import { ownedContentDigests } from '../../../src/extract/composer/owned-content-digests.js';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { HydrationBudget } from '../../../src/extract/sqlite/keyset-pager.js';
import { openSqliteSnapshot } from '../../../src/extract/sqlite/sqlite-snapshot.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { tempDir } from '../../helpers/run-cli.js';

/**
 * Sessions of every kind the key rule decides: a colon-bearing ID nested in another's key range,
 * a session without `composerData`, a NULL doc, diff rows shared by nested sessions, a BLOB key,
 * a key that is not UTF-8, values past a page.
 */
function buildSource(path: string, wal: boolean, colonIds = true): Database.Database {
  const db = new Database(path);
  db.pragma('page_size = 1024');
  if (wal) db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  const put = db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
  db.transaction(() => {
    put.run('composerData:a', '{"a":1}');
    if (colonIds) put.run('composerData:p:q', Buffer.from('{"nested":true}'));
    put.run('composerData:n', null);
    for (let i = 0; i < 120; i++) {
      const owner = ['a', 'b', 'p', 'p:q', 'n'][i % 5]!;
      put.run(`bubbleId:${owner}:${i}`, i % 13 === 0 ? null : `${i}-`.repeat(i * 11));
      if (i % 17 === 0) put.run(`codeBlockDiff:${owner}:${i}`, `diff ${i}`);
    }
    put.run(Buffer.from('bubbleId:a:blob-key'), 'a BLOB key: outside every TEXT key range');
    db.prepare(
      "INSERT INTO cursorDiskKV (key, value) VALUES (CAST(x'627562626c6549643a613aff' AS TEXT), ?)",
    ).run('a bubble ID that is not UTF-8');
    put.run('composerData:only-doc', '{}');
  })();
  if (wal) {
    // Pages in the WAL too: the read takes them from the frames its snapshot sees.
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('wal_autocheckpoint = 0');
    put.run('bubbleId:b:late', 'written after the checkpoint');
  }
  return db;
}

/**
 * Per catalogued session: [fingerprint, content digest] as SQLite's queries give them, through a
 * plain connection (no snapshot file to read raw), beside what the owned pass gives.
 */
async function compare(
  path: string,
): Promise<{ sqlite: Map<string, [string, string]>; owned: Map<string, [string, string]> }> {
  const sqlite = new Map<string, [string, string]>();
  const plain = new Database(path, { readonly: true });
  try {
    for (const entry of scanGlobalSessions(plain, new HydrationBudget(DEFAULT_READ_LIMITS))) {
      sqlite.set(entry.composerId, [entry.fingerprint.get(), entry.fingerprint.content(true)!]);
    }
  } finally {
    plain.close();
  }
  const temp = PrivateTempDir.create();
  const snapshot = await openSqliteSnapshot(path, temp, 'composer', undefined, true);
  try {
    const budget = new HydrationBudget(DEFAULT_READ_LIMITS);
    const job = digestJobOf(snapshot.db, BubbleKeyOwners.read(snapshot.db, budget).colonIds);
    expect(job).toBeDefined();
    return { sqlite, owned: ownedContentDigests(job!) };
  } finally {
    snapshot.close();
    temp.dispose();
  }
}

describe('ownedContentDigests', () => {
  it.each([
    [false, true],
    [true, true],
    [false, false],
    [true, false],
  ])(
    "gives every catalogued session SQLite's fingerprint and content digest (WAL: %s, colon IDs: %s)",
    async (wal, colonIds) => {
      const path = join(tempDir('etl-owned-digests-'), 'state.vscdb');
      const writer = buildSource(path, wal, colonIds);
      const before = await compare(path);
      // Without `composerData:p:q`, `bubbleId:p:q:…` keys are session p's.
      expect([...before.sqlite.keys()].sort()).toEqual(
        colonIds ? ['a', 'b', 'n', 'p', 'p:q'] : ['a', 'b', 'n', 'p'],
      );
      for (const [id, pair] of before.sqlite) expect(before.owned.get(id), id).toEqual(pair);
      // The same length, rowid and key: only the content digest can see it.
      writer
        .prepare("UPDATE cursorDiskKV SET value = 'X' || substr(value, 2) WHERE key = 'bubbleId:p:q:18'")
        .run();
      writer.prepare("UPDATE cursorDiskKV SET value = 'diff X' WHERE key = 'codeBlockDiff:p:q:68'").run();
      const after = await compare(path);
      for (const [id, pair] of after.sqlite) expect(after.owned.get(id), id).toEqual(pair);
      const nested = colonIds ? 'p:q' : 'p';
      expect(after.owned.get(nested)![1]).not.toBe(before.owned.get(nested)![1]);
      expect(after.owned.get(nested)![0]).toBe(before.owned.get(nested)![0]);
      // `codeBlockDiff:p:q:` rows lie in session p's diff prefix as well.
      expect(after.owned.get('p')![1]).not.toBe(before.owned.get('p')![1]);
      expect(after.owned.get('a')).toEqual(before.owned.get('a'));
      writer.close();
    },
  );

  it('leaves out a session whose composerData key two rows hold: which one SQLite reads is its call', async () => {
    const path = join(tempDir('etl-owned-digests-dup-'), 'state.vscdb');
    const db = new Database(path);
    db.exec('CREATE TABLE cursorDiskKV (key TEXT, value BLOB)');
    const put = db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
    put.run('composerData:a', '{"first":1}');
    put.run('composerData:a', '{"second":2}');
    put.run('bubbleId:a:1', 'one');
    put.run('bubbleId:b:1', 'two');
    db.close();
    const { owned } = await compare(path);
    expect(owned.has('a')).toBe(false);
    expect(owned.has('b')).toBe(true);
  });
});
