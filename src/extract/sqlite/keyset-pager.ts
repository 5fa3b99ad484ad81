/**
 * Two-phase keyset paging under Source Read Limits v1: bounded metadata pages (rowid, key, byte
 * length, NULL flag) admitted against page and value bounds, then payloads fetched one at a time by
 * rowid with the key and length re-verified and decoded bytes charged to the hydration budget.
 * Key prefixes are matched byte-exactly (never LIKE, never case folding).
 */
import type Database from 'better-sqlite3';
import { checkLimit } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';
import { cachedStatement } from './statement-cache.js';

export interface KeyRowMeta {
  rowid: number;
  key: string;
  byteLength: number;
  isNull: boolean;
}

/** Row and decoded-byte budget of one logical-session hydration or one catalog scan. */
export class HydrationBudget {
  private rows = 0;
  private decodedBytes = 0;
  constructor(private readonly limits: ReadLimits) {}

  chargeRows(count: number): void {
    this.rows += count;
    checkLimit('sqliteRowCount', this.limits.sqliteRowCount, this.rows);
  }
  chargeBytes(bytes: number): void {
    this.decodedBytes += bytes;
    checkLimit('sqliteDecodedBytes', this.limits.sqliteDecodedBytes, this.decodedBytes);
  }
}

/** The exclusive upper bound of a prefix range: the prefix with its last code unit incremented. */
export function prefixUpperBound(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

interface PagerStatements {
  page: Database.Statement;
  value: Database.Statement;
  window: Database.Statement;
  exact: Database.Statement;
}

/** Admitted payloads fetched by one query: bounded so a batch never holds more than this at once. */
const FETCH_WINDOW_BYTES = 4 * 1024 * 1024;

type RawRow = { rid: number; k: Buffer; v: Buffer | null };

/** A pager is built per session: its statements are prepared once per connection and table. */
function pagerStatements(db: Database.Database, table: string): PagerStatements {
  const t = quoteIdent(table);
  return {
    // The range uses the UNIQUE key index; the BLOB comparison makes the prefix test byte-exact.
    page: cachedStatement(
      db,
      `SELECT rowid AS rid, CAST(key AS BLOB) AS k, octet_length(value) AS len, value IS NULL AS nul
         FROM ${t}
        WHERE key >= ? AND key < ? AND substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB) AND rowid > ?
        ORDER BY rowid LIMIT ?`,
    ),
    value: cachedStatement(
      db,
      `SELECT rowid AS rid, CAST(key AS BLOB) AS k, CAST(value AS BLOB) AS v FROM ${t} WHERE rowid = ?`,
    ),
    // `+rowid` keeps the planner on the key index (a rowid range would scan other sessions' rows).
    window: cachedStatement(
      db,
      `SELECT rowid AS rid, CAST(key AS BLOB) AS k, CAST(value AS BLOB) AS v
         FROM ${t}
        WHERE key >= ? AND key < ? AND substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB)
          AND +rowid >= ? AND +rowid <= ?`,
    ),
    exact: cachedStatement(
      db,
      `SELECT rowid AS rid, octet_length(value) AS len, value IS NULL AS nul
         FROM ${t} WHERE key = ? AND CAST(key AS BLOB) = CAST(? AS BLOB)`,
    ),
  };
}

export class KeysetPager {
  private readonly pageStmt: Database.Statement;
  private readonly valueStmt: Database.Statement;
  private readonly windowStmt: Database.Statement;
  private readonly exactStmt: Database.Statement;

  constructor(
    db: Database.Database,
    table: string,
    private readonly limits: ReadLimits,
    private readonly counters: ReadCounters,
  ) {
    const statements = pagerStatements(db, table);
    this.pageStmt = statements.page;
    this.valueStmt = statements.value;
    this.windowStmt = statements.window;
    this.exactStmt = statements.exact;
  }

  /** Yields admitted metadata pages of rows whose key starts with `prefix`, in rowid order. */
  *pages(prefix: string, budget: HydrationBudget): Generator<KeyRowMeta[]> {
    const upper = prefixUpperBound(prefix);
    const prefixBytes = Buffer.byteLength(prefix, 'utf8');
    let after = -Number.MAX_SAFE_INTEGER;
    for (;;) {
      const rows = this.pageStmt.all(
        prefix,
        upper,
        prefixBytes,
        prefix,
        after,
        this.limits.sqlitePageRows,
      ) as {
        rid: number;
        k: Buffer;
        len: number | null;
        nul: number;
      }[];
      if (rows.length === 0) return;
      this.counters.chargeMetadata(rows.length);
      budget.chargeRows(rows.length);
      let pageBytes = 0;
      const page: KeyRowMeta[] = [];
      for (const row of rows) {
        const byteLength = row.len ?? 0;
        checkLimit('sqliteValueBytes', this.limits.sqliteValueBytes, byteLength);
        pageBytes += byteLength;
        checkLimit('sqlitePageBytes', this.limits.sqlitePageBytes, pageBytes);
        page.push({
          rowid: row.rid,
          key: decodeStrictUtf8(row.k, 'sqlite', false),
          byteLength,
          isNull: row.nul === 1,
        });
      }
      yield page;
      after = rows[rows.length - 1]!.rid;
      if (rows.length < this.limits.sqlitePageRows) return;
    }
  }

  /** Metadata of the row whose key is exactly `key`, admitted against the value bound. */
  exact(key: string, budget: HydrationBudget): KeyRowMeta | null {
    const row = this.exactStmt.get(key, key) as { rid: number; len: number | null; nul: number } | undefined;
    if (!row) return null;
    this.counters.chargeMetadata(1);
    budget.chargeRows(1);
    const byteLength = row.len ?? 0;
    checkLimit('sqliteValueBytes', this.limits.sqliteValueBytes, byteLength);
    return { rowid: row.rid, key, byteLength, isNull: row.nul === 1 };
  }

  /**
   * Fetches one admitted payload as raw bytes (null for SQL NULL), or `changed` when the row no
   * longer matches its metadata (a writer raced the snapshot).
   */
  fetch(meta: KeyRowMeta, budget: HydrationBudget): Buffer | null | 'changed' {
    return this.verify(meta, this.valueStmt.get(meta.rowid) as RawRow | undefined, budget);
  }

  /**
   * The payloads of one admitted page of `prefix` rows, in page order, each exactly as `fetch`
   * returns it (same checks, same charges, one row at a time), but read by one query per window of
   * consecutive rows instead of one query per row.
   */
  *fetchPage(
    page: readonly KeyRowMeta[],
    prefix: string,
    budget: HydrationBudget,
  ): Generator<Buffer | null | 'changed'> {
    const upper = prefixUpperBound(prefix);
    const prefixBytes = Buffer.byteLength(prefix, 'utf8');
    let start = 0;
    while (start < page.length) {
      let end = start + 1;
      let bytes = page[start]!.byteLength;
      while (end < page.length && bytes + page[end]!.byteLength <= FETCH_WINDOW_BYTES) {
        bytes += page[end]!.byteLength;
        end++;
      }
      if (end - start === 1) {
        yield this.fetch(page[start]!, budget);
      } else {
        const rows = this.windowStmt.all(
          prefix,
          upper,
          prefixBytes,
          prefix,
          page[start]!.rowid,
          page[end - 1]!.rowid,
        ) as RawRow[];
        const byRowid = new Map<number, RawRow>();
        for (const row of rows) byRowid.set(row.rid, row);
        for (let i = start; i < end; i++) yield this.verify(page[i]!, byRowid.get(page[i]!.rowid), budget);
      }
      start = end;
    }
  }

  private verify(
    meta: KeyRowMeta,
    row: RawRow | undefined,
    budget: HydrationBudget,
  ): Buffer | null | 'changed' {
    if (!row || row.k.toString('utf8') !== meta.key) return 'changed';
    if (row.v === null) return meta.isNull ? null : 'changed';
    if (row.v.length !== meta.byteLength) return 'changed';
    checkLimit('sqliteValueBytes', this.limits.sqliteValueBytes, row.v.length);
    budget.chargeBytes(row.v.length);
    this.counters.chargePayload(row.v.length);
    return row.v;
  }
}
