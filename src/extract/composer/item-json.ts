/**
 * Reads parts of one JSON value of an ItemTable row inside SQLite (`json_each`/`json_extract`), so a
 * catalog can project IDs out of a workspace index without materializing conversation payloads.
 */
import type Database from 'better-sqlite3';
import { checkLimit, SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { HydrationBudget } from '../sqlite/keyset-pager.js';
import { cachedStatement } from '../sqlite/statement-cache.js';

/** The global ItemTable key of Cursor's composer header index (`allComposers`, one entry per session). */
export const COMPOSER_HEADERS_KEY = 'composer.composerHeaders';

/**
 * What the engine reports of the value stored under one key: rowid, byte length, and JSON validity
 * (null past the value bound, which is checked before the value is read).
 */
export interface JsonItemMeta {
  rid: number;
  len: number | null;
  ok: number | null;
}

/** The metadata of the value stored under `key` (nothing is charged: `admitJsonItem` does that). */
export function jsonItemMeta(
  db: Database.Database,
  table: string,
  key: string,
  limits: ReadLimits,
): JsonItemMeta | null {
  const row = cachedStatement(
    db,
    `SELECT rowid AS rid, octet_length(value) AS len,
            CASE WHEN octet_length(value) <= ? THEN json_valid(CAST(value AS TEXT)) END AS ok
       FROM "${table}" WHERE key = ? AND CAST(key AS BLOB) = CAST(? AS BLOB)`,
  ).get(limits.sqliteValueBytes, key, key) as JsonItemMeta | undefined;
  return row ?? null;
}

/** Charges one read of `meta` and admits it against the value bound: its rowid when it is JSON. */
export function admitJsonItem(
  meta: JsonItemMeta | null,
  limits: ReadLimits,
  budget: HydrationBudget,
): number | null {
  if (meta === null) return null;
  budget.chargeRows(1);
  checkLimit('sqliteValueBytes', limits.sqliteValueBytes, meta.len ?? 0);
  return meta.ok === 1 ? meta.rid : null;
}

/** The rowid of a well-formed JSON value stored under `key`, admitted against the value bound. */
export function jsonItemRow(
  db: Database.Database,
  table: string,
  key: string,
  limits: ReadLimits,
  budget: HydrationBudget,
): number | null {
  return admitJsonItem(jsonItemMeta(db, table, key, limits), limits, budget);
}

/**
 * Pages the elements of the JSON array at `arrayPath` in one row, projecting `fields` (JSON paths
 * relative to the element) in array order, under the page-row bound.
 */
export function* jsonArrayElements(
  db: Database.Database,
  table: string,
  rowid: number,
  arrayPath: string,
  fields: Record<string, string>,
  limits: ReadLimits,
  budget: HydrationBudget,
): Generator<{ index: number; values: Record<string, unknown> }> {
  const names = Object.keys(fields);
  // Primitive elements are not JSON text inside json_each, so only containers are projected into.
  const projection = names
    .map(
      (_name, i) =>
        `CASE WHEN ? = '$' THEN e.value WHEN e.type = 'object' THEN json_extract(e.value, ?) END AS c${i},
         CASE WHEN ? = '$' THEN e.type WHEN e.type = 'object' THEN json_type(e.value, ?) END AS t${i}`,
    )
    .join(', ');
  const stmt = db.prepare(
    `SELECT e.key AS idx, e.type AS etype ${projection.length > 0 ? `, ${projection}` : ''}
       FROM "${table}" AS r, json_each(CAST(r.value AS TEXT), ?) AS e
      WHERE r.rowid = ? AND json_type(CAST(r.value AS TEXT), ?) = 'array' AND e.key > ?
      ORDER BY e.key LIMIT ?`,
  );
  const params = names.flatMap((name) => [fields[name], fields[name], fields[name], fields[name]]);
  let after = -1;
  for (;;) {
    const rows = stmt.all(...params, arrayPath, rowid, arrayPath, after, limits.sqlitePageRows) as Record<
      string,
      unknown
    >[];
    if (rows.length === 0) return;
    budget.chargeRows(rows.length);
    for (const row of rows) {
      const values: Record<string, unknown> = { $type: row.etype };
      names.forEach((name, i) => {
        const type = row[`t${i}`];
        values[name] = type === 'array' || type === 'object' ? type : row[`c${i}`];
      });
      yield { index: Number(row.idx), values };
    }
    after = Number(rows[rows.length - 1]!.idx);
    if (rows.length < limits.sqlitePageRows) return;
  }
}

/** The elements of an index read whole, or none with the bound it crossed: never half an index. */
export interface IndexElements {
  elements: { index: number; values: Record<string, unknown> }[];
  overBound: SourceLimitExceeded | null;
}

/** `jsonArrayElements` of the array at `arrayPath` in the JSON value under `key`, all or nothing. */
export function jsonIndexElements(
  db: Database.Database,
  table: string,
  key: string,
  arrayPath: string,
  fields: Record<string, string>,
  limits: ReadLimits,
  budget: HydrationBudget,
): IndexElements {
  try {
    const rowid = jsonItemRow(db, table, key, limits, budget);
    const elements =
      rowid === null ? [] : [...jsonArrayElements(db, table, rowid, arrayPath, fields, limits, budget)];
    return { elements, overBound: null };
  } catch (error) {
    if (!(error instanceof SourceLimitExceeded)) throw error;
    return { elements: [], overBound: error };
  }
}

/** One element of a JSON array as raw bytes (the caller decodes strictly and charges the budget). */
export function jsonArrayElementBytes(
  db: Database.Database,
  table: string,
  rowid: number,
  elementPath: string,
): Buffer | null {
  const row = cachedStatement(
    db,
    `SELECT CAST(json_extract(CAST(value AS TEXT), ?) AS BLOB) AS v FROM "${table}" WHERE rowid = ?`,
  ).get(elementPath, rowid) as { v: Buffer | null } | undefined;
  return row?.v ?? null;
}
