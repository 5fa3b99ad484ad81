import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../fixtures/bench/seeded-random.js';
import { rawText, StateDbBuilder, sqlNull } from '../../../fixtures/composer/state-db-builder.js';
import { adversarialSessionIds } from '../../../fixtures/hostile/adversarial-ids.js';
import { SourceLimitExceeded } from '../../../src/extract/limits/limit-exceeded.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../../../src/extract/limits/read-limits.js';
import { ReadCounters } from '../../../src/extract/read-counters.js';
import {
  HydrationBudget,
  inlineBound,
  type KeyRowMeta,
  KeysetPager,
  pagerSql,
} from '../../../src/extract/sqlite/keyset-pager.js';
import { SourceEncodingInvalid } from '../../../src/extract/text/strict-utf8.js';
import { tempDir } from '../../helpers/run-cli.js';

const BIG = 'x'.repeat(3 * 1024 * 1024);

/** Session `s` has small, NULL and 3 MiB rows interleaved (by rowid) with session `t`'s rows. */
function buildDbAt(path: string): void {
  const builder = new StateDbBuilder(path);
  for (let i = 0; i < 12; i++) {
    builder.put(
      'cursorDiskKV',
      `bubbleId:s:${String(i).padStart(2, '0')}`,
      rawText(i % 5 === 4 ? BIG : `{"i":${i}}`),
    );
    builder.put('cursorDiskKV', `bubbleId:t:${i}`, rawText(`{"other":${i}}`));
  }
  builder.put('cursorDiskKV', 'bubbleId:s:99', sqlNull);
  builder.close();
}

function buildDb(): Database.Database {
  const path = join(tempDir('etl-pager-'), 'state.vscdb');
  buildDbAt(path);
  return new Database(path, { readonly: true });
}

/** Buffers compared by digest: deep equality over megabytes is needlessly slow. */
const digestOf = (value: unknown): unknown =>
  Buffer.isBuffer(value) ? createHash('sha256').update(value).digest('hex') : value;

const SMALL_PAGES: ReadLimits = { ...DEFAULT_READ_LIMITS, sqlitePageRows: 5 };

function readAll(db: Database.Database, limits: ReadLimits, counters = new ReadCounters()) {
  const pager = new KeysetPager(db, 'cursorDiskKV', limits, counters);
  const budget = new HydrationBudget(limits);
  const metas: KeyRowMeta[] = [];
  const payloads: unknown[] = [];
  for (const page of pager.pages('bubbleId:s:', budget)) {
    metas.push(...page);
    for (const meta of page) payloads.push(pager.fetch(meta, budget));
  }
  return { pager, metas, payloads };
}

describe('KeysetPager', () => {
  it('reads small payloads with their page and fetches large ones after it, in rowid order', () => {
    const db = buildDb();
    const counters = new ReadCounters();
    const { metas, payloads } = readAll(db, SMALL_PAGES, counters);
    expect(metas.map((m) => m.key.slice('bubbleId:s:'.length))).toEqual([
      ...Array.from({ length: 12 }, (_, i) => String(i).padStart(2, '0')),
      '99',
    ]);
    // The 3 MiB rows (4 and 9) are above the inline bound; the NULL row needs no payload read.
    expect(metas.map((m) => m.payload === undefined)).toEqual(metas.map((_, i) => i === 4 || i === 9));
    expect(metas.at(-1)!.payload).toBeNull();
    expect(payloads.at(-1)).toBeNull();
    expect(digestOf(payloads[4])).toBe(digestOf(Buffer.from(BIG)));
    expect(payloads[0]).toEqual(Buffer.from('{"i":0}'));
    expect(counters.payloadReads).toBe(12);
    expect(counters.metadataRows).toBe(13);
    db.close();
  });

  it('a payload read with its metadata equals the one fetched by rowid, with the same charges', () => {
    const db = buildDb();
    const inlined = new ReadCounters();
    const { metas, payloads } = readAll(db, SMALL_PAGES, inlined);
    const fetched = new ReadCounters();
    const pager = new KeysetPager(db, 'cursorDiskKV', SMALL_PAGES, fetched);
    const budget = new HydrationBudget(SMALL_PAGES);
    const byRowid = metas.map((meta) => pager.fetch({ ...meta, payload: undefined }, budget));
    expect(byRowid.map(digestOf)).toEqual(payloads.map(digestOf));
    expect(fetched.payloadBytes).toBe(inlined.payloadBytes);
    expect(fetched.payloadReads).toBe(inlined.payloadReads);
    db.close();
  });

  it('a payload that no longer matches its metadata is reported as changed, not returned', () => {
    const db = buildDb();
    const pager = new KeysetPager(db, 'cursorDiskKV', DEFAULT_READ_LIMITS, new ReadCounters());
    const budget = new HydrationBudget(DEFAULT_READ_LIMITS);
    const [page] = [...pager.pages('bubbleId:s:', budget)];
    const tampered = (meta: KeyRowMeta): KeyRowMeta => ({ ...meta, byteLength: meta.byteLength + 1 });
    expect(page![1]!.payload).toBeDefined();
    expect(pager.fetch(tampered(page![1]!), budget)).toBe('changed');
    expect(page![4]!.payload).toBeUndefined();
    expect(pager.fetch(tampered(page![4]!), budget)).toBe('changed');
    expect(Buffer.isBuffer(pager.fetch(page![0]!, budget))).toBe(true);
    db.close();
  });

  it('a row rewritten between its page and its fetch is changed; an inlined one keeps what was read', () => {
    const path = join(tempDir('etl-pager-race-'), 'state.vscdb');
    buildDbAt(path);
    const db = new Database(path, { readonly: true });
    const pager = new KeysetPager(db, 'cursorDiskKV', DEFAULT_READ_LIMITS, new ReadCounters());
    const budget = new HydrationBudget(DEFAULT_READ_LIMITS);
    const [page] = [...pager.pages('bubbleId:s:', budget)];
    const writer = new Database(path);
    const rewrite = writer.prepare('UPDATE cursorDiskKV SET value = ? WHERE key = ?');
    rewrite.run(`${BIG}y`, 'bubbleId:s:04');
    rewrite.run('{"i":"rewritten"}', 'bubbleId:s:00');
    writer.close();
    expect(pager.fetch(page![4]!, budget)).toBe('changed');
    expect(pager.fetch(page![0]!, budget)).toEqual(Buffer.from('{"i":0}'));
    db.close();
  });

  it('charges the decoded-byte budget row by row, stopping at the row that breaches it', () => {
    const db = buildDb();
    const limits = { ...DEFAULT_READ_LIMITS, sqliteDecodedBytes: 4 * 1024 * 1024 };
    const pager = new KeysetPager(db, 'cursorDiskKV', limits, new ReadCounters());
    const budget = new HydrationBudget(limits);
    const [page] = [...pager.pages('bubbleId:s:', budget)];
    const seen: unknown[] = [];
    expect(() => {
      for (const meta of page!) seen.push(pager.fetch(meta, budget));
    }).toThrow(SourceLimitExceeded);
    // Rows 0-3 are small; row 4 is the first 3 MiB value and fits; row 9 (the second) breaches.
    expect(seen).toHaveLength(9);
    db.close();
  });

  it('the inline bound keeps every inlined value and a full page of them within their limits', () => {
    expect(inlineBound(DEFAULT_READ_LIMITS)).toBe(64 * 1024);
    const limits = {
      ...DEFAULT_READ_LIMITS,
      sqlitePageRows: 4,
      sqlitePageBytes: 4_000,
      sqliteValueBytes: 3_000,
    };
    expect(inlineBound(limits)).toBe(1_000);
    expect(inlineBound({ ...limits, sqliteValueBytes: 600 })).toBe(600);
  });

  it('a page crossing sqlitePageBytes mid-page yields nothing and charges no payload', () => {
    const db = buildDb();
    const limits = { ...SMALL_PAGES, sqliteValueBytes: 3 * 1024 * 1024, sqlitePageBytes: 3 * 1024 * 1024 };
    const counters = new ReadCounters();
    const pager = new KeysetPager(db, 'cursorDiskKV', limits, counters);
    const pages: KeyRowMeta[][] = [];
    let failure: unknown;
    try {
      for (const page of pager.pages('bubbleId:s:', new HydrationBudget(limits))) pages.push(page);
    } catch (error) {
      failure = error;
    }
    // Page 1 (rows 0-4) holds 3 MiB + 28 bytes: row 4 crosses the bound after four small rows.
    expect(failure).toBeInstanceOf(SourceLimitExceeded);
    expect((failure as SourceLimitExceeded).bound).toBe('sqlitePageBytes');
    expect((failure as SourceLimitExceeded).observedAtLeast).toBe(3 * 1024 * 1024 + 4 * 7);
    expect(pages).toEqual([]);
    expect(counters.payloadReads).toBe(0);
    db.close();
  });

  it('a value above sqliteValueBytes fails its page before any payload of it is handed out', () => {
    const db = buildDb();
    const limits = { ...SMALL_PAGES, sqliteValueBytes: 1024 * 1024 };
    const pager = new KeysetPager(db, 'cursorDiskKV', limits, new ReadCounters());
    const iterator = pager.pages('bubbleId:s:', new HydrationBudget(limits));
    expect(() => iterator.next()).toThrow(
      expect.objectContaining({ bound: 'sqliteValueBytes', observedAtLeast: BIG.length }),
    );
    db.close();
  });

  it('exact reads a small value with its metadata and fetches a large one by rowid', () => {
    const db = buildDb();
    const counters = new ReadCounters();
    const pager = new KeysetPager(db, 'cursorDiskKV', DEFAULT_READ_LIMITS, counters);
    const budget = new HydrationBudget(DEFAULT_READ_LIMITS);
    const small = pager.exact('bubbleId:s:00', budget)!;
    const big = pager.exact('bubbleId:s:04', budget)!;
    expect(small.payload).toEqual(Buffer.from('{"i":0}'));
    expect(big.payload).toBeUndefined();
    expect(digestOf(pager.fetch(big, budget))).toBe(digestOf(Buffer.from(BIG)));
    expect(pager.fetch(small, budget)).toEqual(Buffer.from('{"i":0}'));
    expect(pager.exact('bubbleId:s:99', budget)!.payload).toBeNull();
    expect(pager.exact('bubbleId:S:00', budget)).toBeNull();
    expect(counters.payloadReads).toBe(2);
    db.close();
  });

  describe('keys are decoded strictly', () => {
    function dbWithKey(keyBytes: Buffer): Database.Database {
      const path = join(tempDir('etl-pager-key-'), 'state.vscdb');
      const builder = new StateDbBuilder(path);
      builder.put('cursorDiskKV', 'bubbleId:k:a', rawText('{}'));
      builder.db
        .prepare('INSERT INTO cursorDiskKV (key, value) VALUES (CAST(? AS TEXT), ?)')
        .run(keyBytes, '{}');
      builder.close();
      return new Database(path, { readonly: true });
    }
    const keysOf = (db: Database.Database): string[] => {
      const pager = new KeysetPager(db, 'cursorDiskKV', DEFAULT_READ_LIMITS, new ReadCounters());
      return [...pager.pages('bubbleId:k:', new HydrationBudget(DEFAULT_READ_LIMITS))]
        .flat()
        .map((m) => m.key);
    };
    const problemOf = (db: Database.Database): unknown => {
      try {
        keysOf(db);
      } catch (error) {
        return error instanceof SourceEncodingInvalid ? error.problem : error;
      }
      return 'decoded';
    };

    it('a stored U+FFFD (EF BF BD) is the exact key, not an invalid one', () => {
      const db = dbWithKey(Buffer.from('bubbleId:k:\uFFFDb', 'utf8'));
      expect(keysOf(db)).toEqual(['bubbleId:k:a', 'bubbleId:k:\uFFFDb']);
      db.close();
    });

    it.each([
      ['a lone continuation byte', '80'],
      ['an overlong encoding', 'c0af'],
      ['an encoded surrogate', 'eda080'],
      ['a truncated sequence', 'e282'],
      ['a byte that never occurs', 'ff'],
    ])('%s is SOURCE_ENCODING_INVALID, never a replacement character', (_name, hex) => {
      const db = dbWithKey(Buffer.concat([Buffer.from('bubbleId:k:'), Buffer.from(hex, 'hex')]));
      expect(problemOf(db)).toBe('invalid-utf8');
      db.close();
    });

    it('a BOM inside a key is a misplaced BOM', () => {
      const db = dbWithKey(Buffer.from('bubbleId:k:\uFEFFb', 'utf8'));
      expect(problemOf(db)).toBe('misplaced-bom');
      db.close();
    });
  });

  describe('reading one prefix is linear in its rows', () => {
    /** The query plan's lines for `sql`, every parameter bound to a placeholder. */
    function planOf(db: Database.Database, sql: string): string[] {
      const params = Array.from({ length: sql.split('?').length - 1 }, () => 1);
      return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
        (row) => row.detail,
      );
    }

    it.each([0, 2])(
      'with %i exclusions the listing is one key-index range and a page only its own rowids, never sorted whole',
      (excluded) => {
        const db = buildDb();
        const sql = pagerSql('cursorDiskKV');
        const listing = planOf(db, sql.rowids(excluded));
        expect(listing).toHaveLength(1);
        expect(listing[0]).toMatch(/^SEARCH cursorDiskKV USING COVERING INDEX \S+ \(key>\? AND key<\?\)$/);
        const page = planOf(db, sql.page(excluded));
        expect(page).toContain('SEARCH cursorDiskKV USING INTEGER PRIMARY KEY (rowid=?)');
        expect(page.filter((line) => /SCAN cursorDiskKV|INDEX sqlite_autoindex/.test(line))).toEqual([]);
        for (const line of [...listing, ...page]) expect(line).not.toMatch(/TEMP B-TREE/);
        db.close();
      },
    );

    it('lists the range once per read, so rows past it are never revisited', () => {
      const db = buildDb();
      const traced: string[] = [];
      const traceDb = new Database(db.name, { readonly: true, verbose: (sql) => traced.push(String(sql)) });
      const { metas } = readAll(traceDb, { ...DEFAULT_READ_LIMITS, sqlitePageRows: 2 });
      expect(metas).toHaveLength(13);
      expect(traced.filter((sql) => sql.includes('LIMIT'))).toHaveLength(1);
      expect(traced.filter((sql) => sql.includes('json_each'))).toHaveLength(7);
      traceDb.close();
      db.close();
    });
  });

  describe('adversarial keys: the same rows in the same order as a byte-exact scan', () => {
    const IDS = adversarialSessionIds(30, 40);

    /** Every session's bubbles, inserted in a shuffled order so rowid order is not key order. */
    function adversarialDb(): Database.Database {
      const random = new SeededRandom(7);
      const rows = IDS.flatMap((id, s) =>
        Array.from({ length: random.int(0, 9) }, (_, b) => [
          `bubbleId:${id}:${b}${IDS[(s + b) % IDS.length]}`,
          s,
        ]),
      ) as [string, number][];
      for (let i = rows.length - 1; i > 0; i--) {
        const j = random.int(0, i);
        [rows[i], rows[j]] = [rows[j]!, rows[i]!];
      }
      const path = join(tempDir('etl-pager-ids-'), 'state.vscdb');
      const builder = new StateDbBuilder(path);
      for (const [key, s] of rows) builder.put('cursorDiskKV', key, rawText(`{"s":${s}}`));
      for (const id of IDS) builder.put('cursorDiskKV', `composerData:${id}`, rawText('{}'));
      builder.close();
      return new Database(path, { readonly: true });
    }

    /** The reference: every row, filtered on its key's bytes, in rowid order. */
    function expectedRows(db: Database.Database, prefix: string, excluded: readonly string[]): string[] {
      const starts = (key: Buffer, p: string): boolean => {
        const bytes = Buffer.from(p, 'utf8');
        return key.subarray(0, bytes.length).equals(bytes);
      };
      return (
        db.prepare('SELECT rowid AS r, CAST(key AS BLOB) AS k FROM cursorDiskKV ORDER BY rowid').all() as {
          r: number;
          k: Buffer;
        }[]
      )
        .filter(({ k }) => starts(k, prefix) && !excluded.some((x) => starts(k, x)))
        .map(({ r, k }) => `${r} ${k.toString('utf8')}`);
    }

    it('for every session, with the sessions it prefixes excluded, across page boundaries', () => {
      const db = adversarialDb();
      const limits = { ...DEFAULT_READ_LIMITS, sqlitePageRows: 3 };
      const pager = new KeysetPager(db, 'cursorDiskKV', limits, new ReadCounters());
      let compared = 0;
      for (const id of IDS) {
        const prefix = `bubbleId:${id}:`;
        const excluded = IDS.filter((other) => other !== id && `bubbleId:${other}:`.startsWith(prefix)).map(
          (other) => `bubbleId:${other}:`,
        );
        for (const exclusions of [[], excluded]) {
          const pages = [...pager.pages(prefix, new HydrationBudget(limits), exclusions)];
          expect(pages.every((page) => page.length > 0 && page.length <= 3)).toBe(true);
          const got = pages.flat().map((m) => `${m.rowid} ${m.key}`);
          expect(got, id).toEqual(expectedRows(db, prefix, exclusions));
          compared += got.length;
        }
      }
      expect(compared).toBeGreaterThan(IDS.length);
      db.close();
    });
  });

  it('sqliteRowCount rejects the page that crosses it, after the pages within it', () => {
    const db = buildDb();
    const limits = { ...DEFAULT_READ_LIMITS, sqlitePageRows: 3, sqliteRowCount: 7 };
    const pager = new KeysetPager(db, 'cursorDiskKV', limits, new ReadCounters());
    const seen: number[] = [];
    expect(() => {
      for (const page of pager.pages('bubbleId:s:', new HydrationBudget(limits))) seen.push(page.length);
    }).toThrow(SourceLimitExceeded);
    expect(seen).toEqual([3, 3]);
    db.close();
  });
});
