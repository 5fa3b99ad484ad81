import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { rawText, StateDbBuilder, sqlNull } from '../../../fixtures/composer/state-db-builder.js';
import { SourceLimitExceeded } from '../../../src/extract/limits/limit-exceeded.js';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { ReadCounters } from '../../../src/extract/read-counters.js';
import { HydrationBudget, type KeyRowMeta, KeysetPager } from '../../../src/extract/sqlite/keyset-pager.js';
import { tempDir } from '../../helpers/run-cli.js';

/** Session `s` has small, NULL and 3 MiB rows interleaved (by rowid) with session `t`'s rows. */
function buildDb(): Database.Database {
  const path = join(tempDir('etl-pager-'), 'state.vscdb');
  const builder = new StateDbBuilder(path);
  const big = 'x'.repeat(3 * 1024 * 1024);
  for (let i = 0; i < 12; i++) {
    builder.put(
      'cursorDiskKV',
      `bubbleId:s:${String(i).padStart(2, '0')}`,
      rawText(i % 5 === 4 ? big : `{"i":${i}}`),
    );
    builder.put('cursorDiskKV', `bubbleId:t:${i}`, rawText(`{"other":${i}}`));
  }
  builder.put('cursorDiskKV', 'bubbleId:s:99', sqlNull);
  builder.close();
  return new Database(path, { readonly: true });
}

/** Buffers compared by digest: deep equality over megabytes is needlessly slow. */
const digestOf = (value: unknown): unknown =>
  Buffer.isBuffer(value) ? createHash('sha256').update(value).digest('hex') : value;

function fetchBoth(db: Database.Database, limits = DEFAULT_READ_LIMITS) {
  const one = new KeysetPager(db, 'cursorDiskKV', limits, new ReadCounters());
  const counters = new ReadCounters();
  const paged = new KeysetPager(db, 'cursorDiskKV', limits, counters);
  const budget = new HydrationBudget(limits);
  const metas: KeyRowMeta[] = [];
  const single: unknown[] = [];
  const windowed: unknown[] = [];
  for (const page of paged.pages('bubbleId:s:', budget)) {
    metas.push(...page);
    for (const meta of page) single.push(one.fetch(meta, new HydrationBudget(limits)));
    windowed.push(...paged.fetchPage(page, 'bubbleId:s:', budget));
  }
  return { metas, single: single.map(digestOf), windowed: windowed.map(digestOf), counters };
}

describe('KeysetPager', () => {
  it('fetches a page by windows with exactly the payloads, order and charges of one fetch per row', () => {
    const db = buildDb();
    const { metas, single, windowed, counters } = fetchBoth(db, {
      ...DEFAULT_READ_LIMITS,
      sqlitePageRows: 5,
    });
    expect(metas.map((m) => m.key.slice('bubbleId:s:'.length))).toEqual([
      ...Array.from({ length: 12 }, (_, i) => String(i).padStart(2, '0')),
      '99',
    ]);
    expect(windowed).toEqual(single);
    expect(windowed.at(-1)).toBeNull();
    expect(windowed[4]).toBe(digestOf(Buffer.from('x'.repeat(3 * 1024 * 1024))));
    expect(counters.payloadReads).toBe(12);
    db.close();
  });

  it('a payload that changed since its metadata was read is reported as changed, not returned', () => {
    const db = buildDb();
    const pager = new KeysetPager(db, 'cursorDiskKV', DEFAULT_READ_LIMITS, new ReadCounters());
    const budget = new HydrationBudget(DEFAULT_READ_LIMITS);
    const [page] = [...pager.pages('bubbleId:s:', budget)];
    const tampered = page!.map((meta, i) => (i === 1 ? { ...meta, byteLength: meta.byteLength + 1 } : meta));
    const results = [...pager.fetchPage(tampered, 'bubbleId:s:', budget)];
    expect(results[1]).toBe('changed');
    expect(Buffer.isBuffer(results[0])).toBe(true);
    db.close();
  });

  it('charges the decoded-byte budget row by row, stopping at the same row as single fetches', () => {
    const db = buildDb();
    const limits = { ...DEFAULT_READ_LIMITS, sqliteDecodedBytes: 4 * 1024 * 1024 };
    const pager = new KeysetPager(db, 'cursorDiskKV', limits, new ReadCounters());
    const budget = new HydrationBudget(limits);
    const [page] = [...pager.pages('bubbleId:s:', budget)];
    const seen: unknown[] = [];
    expect(() => {
      for (const bytes of pager.fetchPage(page!, 'bubbleId:s:', budget)) seen.push(bytes);
    }).toThrow(SourceLimitExceeded);
    // Rows 0-3 are small; row 4 is the first 3 MiB value and fits; row 9 (the second) breaches.
    expect(seen).toHaveLength(9);
    db.close();
  });
});
