/**
 * Paging under Source Read Limits v1: a key prefix's rowids are listed once from the key index, then
 * pages of them are admitted against page and value bounds; larger payloads are fetched by rowid with
 * key and length re-checked. Key prefixes match byte-exactly.
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
  /** The payload as read with the metadata (null for SQL NULL); undefined when it is fetched later. */
  payload: Buffer | null | undefined;
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

/**
 * Payloads up to this length are read with their metadata: each row is visited once in the table and
 * its key is never copied into a Buffer. Larger ones (rare) are fetched one at a time once their page
 * is admitted.
 */
const INLINE_PAYLOAD_BYTES = 64 * 1024;

/**
 * The inline bound under `limits`: no inlined value exceeds sqliteValueBytes and a full page of
 * inlined values never exceeds sqlitePageBytes, so nothing is materialized beyond a bound before the
 * page's checks run.
 */
export function inlineBound(limits: ReadLimits): number {
  return Math.min(
    INLINE_PAYLOAD_BYTES,
    limits.sqliteValueBytes,
    Math.floor(limits.sqlitePageBytes / limits.sqlitePageRows),
  );
}

/** A page row as the raw page statement returns it: key as TEXT, payload only when inlined. */
type PageRow = [rowid: number, key: string, byteLength: number | null, isNull: number, inline: Buffer | null];
type ValueRow = { k: Buffer; v: Buffer | null };

const INLINE = 'CASE WHEN octet_length(value) <= ? THEN CAST(value AS BLOB) END';

/** Byte-exact `NOT <prefix>` tests, one per excluded key prefix (two parameters each). */
export function excludedPrefixesSql(count: number): string {
  return ' AND substr(CAST(key AS BLOB), 1, ?) <> CAST(? AS BLOB)'.repeat(count);
}

/** The parameters of `excludedPrefixesSql` for `prefixes`. */
export function excludedPrefixesParams(prefixes: readonly string[]): (string | number)[] {
  return prefixes.flatMap((prefix) => [Buffer.byteLength(prefix, 'utf8'), prefix]);
}

/** The pager's SQL for one table. */
export interface PagerSql {
  rowids(excluded: number): string;
  page(excluded: number): string;
  exact: string;
  value: string;
  keyBytes: string;
}

/** Byte-exact prefix and exclusion tests (the BLOB comparison ignores collation). */
const PREFIX_TEST = 'substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB)';

export function pagerSql(table: string): PagerSql {
  const t = quoteIdent(table);
  return {
    // One pass over the prefix's range of the UNIQUE key index (rowids are in the index entries), so
    // no page ever rescans or sorts the whole range.
    rowids: (excluded) => `SELECT rowid FROM ${t}
             WHERE key >= ? AND key < ? AND ${PREFIX_TEST}${excludedPrefixesSql(excluded)}
             LIMIT ?`,
    // A page visits only its own rows, by rowid; the key tests drop a row whose key no longer matches.
    page: (excluded) => `SELECT rowid, CAST(key AS TEXT), octet_length(value), value IS NULL, ${INLINE}
             FROM ${t}
            WHERE rowid IN (SELECT value FROM json_each(?)) AND ${PREFIX_TEST}${excludedPrefixesSql(excluded)}
            ORDER BY rowid`,
    exact: `SELECT rowid AS rid, octet_length(value) AS len, value IS NULL AS nul, ${INLINE} AS v
              FROM ${t} WHERE key = ? AND CAST(key AS BLOB) = CAST(? AS BLOB)`,
    value: `SELECT CAST(key AS BLOB) AS k, CAST(value AS BLOB) AS v FROM ${t} WHERE rowid = ?`,
    keyBytes: `SELECT CAST(key AS BLOB) FROM ${t} WHERE rowid = ?`,
  };
}

/**
 * Statements are prepared on first use through the connection's cache: a workspace entry read needs
 * only `exact`, on a connection its LRU may have just reopened.
 */
export class KeysetPager {
  private readonly sql: PagerSql;
  private readonly inlineBytes: number;

  constructor(
    private readonly db: Database.Database,
    table: string,
    private readonly limits: ReadLimits,
    private readonly counters: ReadCounters,
  ) {
    this.sql = pagerSql(table);
    this.inlineBytes = inlineBound(limits);
  }

  /**
   * Yields admitted metadata pages of rows whose key starts with `prefix` and with none of
   * `excluded`, in rowid order. The range's rowids are listed once (at most one more than
   * sqliteRowCount, which the page charges then reject), so reading N rows costs O(N log N).
   */
  *pages(prefix: string, budget: HydrationBudget, excluded: readonly string[] = []): Generator<KeyRowMeta[]> {
    const prefixBytes = Buffer.byteLength(prefix, 'utf8');
    const exclusions = excludedPrefixesParams(excluded);
    const listed = cachedStatement(this.db, this.sql.rowids(excluded.length))
      .pluck(true)
      .all(
        prefix,
        prefixUpperBound(prefix),
        prefixBytes,
        prefix,
        ...exclusions,
        this.limits.sqliteRowCount + 1,
      ) as number[];
    const rowids = Float64Array.from(listed).sort();
    listed.length = 0;
    const pageStatement = cachedStatement(this.db, this.sql.page(excluded.length)).raw(true);
    const pageRows = this.limits.sqlitePageRows;
    for (let start = 0; start < rowids.length; start += pageRows) {
      const chunk = JSON.stringify(Array.from(rowids.subarray(start, start + pageRows)));
      const rows = pageStatement.all(
        this.inlineBytes,
        chunk,
        prefixBytes,
        prefix,
        ...exclusions,
      ) as PageRow[];
      if (rows.length === 0) continue;
      this.counters.chargeMetadata(rows.length);
      budget.chargeRows(rows.length);
      let pageBytes = 0;
      const page: KeyRowMeta[] = [];
      for (const [rowid, key, length, isNull, inline] of rows) {
        const byteLength = length ?? 0;
        checkLimit('sqliteValueBytes', this.limits.sqliteValueBytes, byteLength);
        pageBytes += byteLength;
        checkLimit('sqlitePageBytes', this.limits.sqlitePageBytes, pageBytes);
        page.push({
          rowid,
          key: this.strictKey(rowid, key),
          byteLength,
          isNull: isNull === 1,
          payload: isNull === 1 ? null : (inline ?? undefined),
        });
      }
      yield page;
    }
  }

  /** Metadata of the row whose key is exactly `key`, admitted against the value bound. */
  exact(key: string, budget: HydrationBudget): KeyRowMeta | null {
    const row = cachedStatement(this.db, this.sql.exact).get(this.inlineBytes, key, key) as
      | { rid: number; len: number | null; nul: number; v: Buffer | null }
      | undefined;
    if (!row) return null;
    this.counters.chargeMetadata(1);
    budget.chargeRows(1);
    const byteLength = row.len ?? 0;
    checkLimit('sqliteValueBytes', this.limits.sqliteValueBytes, byteLength);
    const isNull = row.nul === 1;
    return { rowid: row.rid, key, byteLength, isNull, payload: isNull ? null : (row.v ?? undefined) };
  }

  /**
   * An admitted row's payload as raw bytes (null for SQL NULL), or `changed` when a payload fetched
   * after its metadata no longer matches it (a writer raced the snapshot).
   */
  fetch(meta: KeyRowMeta, budget: HydrationBudget): Buffer | null | 'changed' {
    if (meta.payload !== undefined) return this.admit(meta, meta.payload, budget);
    const row = cachedStatement(this.db, this.sql.value).get(meta.rowid) as ValueRow | undefined;
    if (!row || row.k.toString('utf8') !== meta.key) return 'changed';
    return this.admit(meta, row.v, budget);
  }

  /** Checks a payload against its metadata and charges it. */
  private admit(meta: KeyRowMeta, bytes: Buffer | null, budget: HydrationBudget): Buffer | null | 'changed' {
    if (bytes === null) return meta.isNull ? null : 'changed';
    if (bytes.length !== meta.byteLength) return 'changed';
    checkLimit('sqliteValueBytes', this.limits.sqliteValueBytes, bytes.length);
    budget.chargeBytes(bytes.length);
    this.counters.chargePayload(bytes.length);
    return bytes;
  }

  /**
   * The key read as TEXT is its exact strict decoding unless it holds U+FFFD: the driver replaces
   * every invalid UTF-8 sequence with U+FFFD, so only then are the stored bytes decoded strictly.
   */
  private strictKey(rowid: number, text: string): string {
    if (!text.includes('\uFFFD')) return decodeStrictUtf8(text, 'sqlite', false);
    return decodeStrictUtf8(
      cachedStatement(this.db, this.sql.keyBytes).pluck(true).get(rowid) as Buffer,
      'sqlite',
      false,
    );
  }
}
