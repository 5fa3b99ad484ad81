/**
 * A session's `codeBlockDiff:<composerId>:<diffId>` rows (cursor-formats §8.1), selected by key
 * prefix like its bubbles: their count and rowids join the session fingerprint and their values its
 * content digest, so a changed diff row makes `--since-last` read the session again.
 */
import type Database from 'better-sqlite3';
import { prefixUpperBound } from '../sqlite/keyset-pager.js';
import { cachedStatement } from '../sqlite/statement-cache.js';
import { CODE_BLOCK_DIFF_PREFIX } from './bubble-key-owners.js';

const RANGE = 'key >= ? AND key < ? AND substr(CAST(key AS BLOB), 1, ?) = CAST(? AS BLOB)';
const DIFF_STATS_SQL = `SELECT count(*) AS n, total(rowid) AS rowSum FROM cursorDiskKV WHERE ${RANGE}`;
const DIFF_VALUES_SQL = `SELECT rowid AS r, CAST(value AS BLOB) AS v FROM cursorDiskKV WHERE ${RANGE} ORDER BY rowid`;

export function diffPrefix(composerId: string): string {
  return `${CODE_BLOCK_DIFF_PREFIX}${composerId}:`;
}

function params(composerId: string): (string | number)[] {
  const prefix = diffPrefix(composerId);
  return [prefix, prefixUpperBound(prefix), Buffer.byteLength(prefix), prefix];
}

/** Count and summed rowids of the session's diff rows, from the key index alone. */
export function diffStats(db: Database.Database, composerId: string): { rows: number; rowidSum: number } {
  const s = cachedStatement(db, DIFF_STATS_SQL).get(...params(composerId)) as { n: number; rowSum: number };
  return { rows: s.n, rowidSum: s.rowSum };
}

/** The session's diff rows in rowid order: `[rowid, value]`. */
export function diffValues(db: Database.Database, composerId: string): Iterable<[number, Buffer | null]> {
  const rows = cachedStatement(db, DIFF_VALUES_SQL).iterate(...params(composerId)) as Iterable<{
    r: number;
    v: Buffer | null;
  }>;
  return (function* () {
    for (const row of rows) yield [row.r, row.v] as [number, Buffer | null];
  })();
}
