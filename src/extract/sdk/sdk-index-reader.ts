/**
 * Reads an SDK `index.db` (cursor-formats §3.2) under Source Read Limits v1: agents, runs and
 * run events are paged by keyset (rowid within the indexed agent or run), every row charged to the
 * hydration budget, every payload checked against the value and page bounds before it is read.
 */
import type Database from 'better-sqlite3';
import { checkLimit } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { HydrationBudget, inlineBound } from '../sqlite/keyset-pager.js';
import { cachedStatement } from '../sqlite/statement-cache.js';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';
import type { SdkAgentData, SdkCell, SdkEventRow, SdkRow, SdkRunRows } from './sdk-contribution.js';

const AGENT_COLUMNS = ['agent_id', 'workspace_ref', 'status', 'name', 'created_at', 'updated_at'] as const;
const RUN_COLUMNS = [
  'run_id',
  'turn_number',
  'status',
  'model',
  'error_code',
  'request_id',
  'usage_json',
  'result',
  'created_at',
  'updated_at',
  'started_at',
  'finished_at',
  'cancelled_at',
  'expired_at',
] as const;
/** Columns an older `runs` schema lacks (cursor-formats §3.2): selected only when present. */
export const OPTIONAL_RUN_COLUMNS = ['request_id', 'usage_json'] as const;
const EVENT_COLUMNS = ['seq', 'event_type', 'created_at'] as const;

export interface SdkReadEnv {
  limits: ReadLimits;
  counters: ReadCounters;
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The columns of `table` among `wanted`, from `PRAGMA table_info` (absent columns are left out). */
export function presentColumns(db: Database.Database, table: string, wanted: readonly string[]): string[] {
  const have = new Set(
    (cachedStatement(db, `PRAGMA table_info(${quote(table)})`).all() as { name: string }[]).map(
      (c) => c.name,
    ),
  );
  return wanted.filter((c) => have.has(c));
}

/** `typeof` and value of each column, a BLOB never materialized (it is a wrong type wherever it occurs). */
function cellSql(columns: readonly string[]): string {
  return columns
    .map(
      (c) =>
        `typeof(${quote(c)}) AS ${quote(`t:${c}`)}, CASE WHEN typeof(${quote(c)}) = 'blob' THEN NULL ELSE ${quote(c)} END AS ${quote(`v:${c}`)}`,
    )
    .join(', ');
}

function cellOf(type: unknown, value: unknown): SdkCell {
  if (type === 'null') return null;
  if (type === 'blob') return { storageClass: 'blob' };
  if (type === 'integer' || type === 'real')
    return typeof value === 'number' && (type === 'real' || Number.isSafeInteger(value))
      ? value
      : { storageClass: 'integer-overflow' };
  return decodeStrictUtf8(String(value), 'sdk-store');
}

function rowOf(raw: Record<string, unknown>, columns: readonly string[]): Record<string, SdkCell> {
  const row: Record<string, SdkCell> = {};
  for (const c of columns) row[c] = cellOf(raw[`t:${c}`], raw[`v:${c}`]);
  return row;
}

/** The agent row by its byte-exact ID, or null. */
export function readAgentRow(db: Database.Database, agentId: string): SdkRow | null {
  const columns = presentColumns(db, 'agents', AGENT_COLUMNS);
  const raw = cachedStatement(
    db,
    `SELECT ${cellSql(columns)} FROM agents WHERE agent_id = ? AND CAST(agent_id AS BLOB) = CAST(? AS BLOB)`,
  ).get(agentId, agentId) as Record<string, unknown> | undefined;
  return raw === undefined ? null : rowOf(raw, columns);
}

/** One catalog page of agent rows after `afterRowid`: rowid, ID cell and workspace cell. */
export function agentPage(
  db: Database.Database,
  afterRowid: number,
  pageRows: number,
): { rowid: number; cells: SdkRow }[] {
  const columns = presentColumns(db, 'agents', ['agent_id', 'workspace_ref', 'updated_at', 'status']);
  const rows = cachedStatement(
    db,
    `SELECT rowid AS r, ${cellSql(columns)} FROM agents WHERE rowid > ? ORDER BY rowid LIMIT ?`,
  ).all(afterRowid, pageRows) as Record<string, unknown>[];
  return rows.map((raw) => ({ rowid: Number(raw.r), cells: rowOf(raw, columns) }));
}

/**
 * Cheap change evidence of one agent: its runs' and events' counts, last rowids and last run
 * update, from the indexes alone (no payload column is read).
 */
export function agentStats(db: Database.Database, agentId: string): string {
  const runs = cachedStatement(
    db,
    'SELECT count(*) AS n, max(rowid) AS r, max(updated_at) AS u FROM runs WHERE agent_id = ?',
  ).get(agentId) as Record<string, unknown>;
  const events = cachedStatement(
    db,
    'SELECT count(*) AS n, max(rowid) AS r FROM run_events WHERE run_id IN (SELECT run_id FROM runs WHERE agent_id = ?)',
  ).get(agentId) as Record<string, unknown>;
  return JSON.stringify([runs.n, runs.r, String(runs.u), events.n, events.r]);
}

function readEvents(
  db: Database.Database,
  runId: string,
  env: SdkReadEnv,
  budget: HydrationBudget,
): SdkEventRow[] {
  const { limits, counters } = env;
  const inline = inlineBound(limits);
  const page = cachedStatement(
    db,
    `SELECT rowid AS r, ${cellSql(EVENT_COLUMNS)}, typeof(payload_json) AS pt, octet_length(payload_json) AS pl,
            CASE WHEN typeof(payload_json) = 'text' AND octet_length(payload_json) <= ? THEN CAST(payload_json AS BLOB) END AS p
       FROM run_events WHERE run_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
  );
  const single = cachedStatement(
    db,
    'SELECT CAST(payload_json AS BLOB) AS p FROM run_events WHERE rowid = ?',
  );
  const events: SdkEventRow[] = [];
  let after = 0;
  for (;;) {
    const rows = page.all(inline, runId, after, limits.sqlitePageRows) as Record<string, unknown>[];
    if (rows.length === 0) return events;
    budget.chargeRows(rows.length);
    let pageBytes = 0;
    for (const raw of rows) {
      const length = raw.pt === 'text' ? Number(raw.pl) : 0;
      checkLimit('sqliteValueBytes', limits.sqliteValueBytes, length);
      pageBytes += length;
    }
    checkLimit('sqlitePageBytes', limits.sqlitePageBytes, pageBytes);
    for (const raw of rows) {
      const cells: Record<string, SdkCell> = rowOf(raw, EVENT_COLUMNS);
      if (raw.pt === 'text') {
        const bytes = (raw.p as Buffer | null) ?? ((single.get(raw.r) as { p: Buffer }).p as Buffer);
        budget.chargeBytes(bytes.length);
        counters.chargePayload(bytes.length);
        cells.payload_json = decodeStrictUtf8(bytes, 'sdk-store');
      } else cells.payload_json = raw.pt === 'null' ? null : cellOf(raw.pt, null);
      events.push({ rowid: Number(raw.r), cells });
    }
    after = Number(rows[rows.length - 1]!.r);
  }
}

/** Every run of `agentId` with its events, in rowid order (the transform orders turns). */
export function readSdkAgent(db: Database.Database, agentId: string, env: SdkReadEnv): SdkAgentData {
  const budget = new HydrationBudget(env.limits);
  const agent = readAgentRow(db, agentId);
  const columns = presentColumns(db, 'runs', RUN_COLUMNS);
  const runColumns = OPTIONAL_RUN_COLUMNS.filter((c) => columns.includes(c));
  const sized = (c: string) => (columns.includes(c) ? `octet_length(${c})` : '0');
  const page = cachedStatement(
    db,
    `SELECT rowid AS r, ${cellSql(columns)}, ${sized('usage_json')} AS ul, ${sized('result')} AS rl
       FROM runs WHERE agent_id = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
  );
  const runs: SdkRunRows[] = [];
  let after = 0;
  for (;;) {
    const rows = page.all(agentId, after, env.limits.sqlitePageRows) as Record<string, unknown>[];
    if (rows.length === 0) break;
    budget.chargeRows(rows.length);
    for (const raw of rows) {
      const bytes = Number(raw.ul ?? 0) + Number(raw.rl ?? 0);
      checkLimit('sqliteValueBytes', env.limits.sqliteValueBytes, bytes);
      budget.chargeBytes(bytes);
      env.counters.chargePayload(bytes);
      const cells = rowOf(raw, columns);
      const runId = cells.run_id;
      runs.push({
        rowid: Number(raw.r),
        cells,
        events: typeof runId === 'string' ? readEvents(db, runId, env, budget) : [],
      });
    }
    after = Number(rows[rows.length - 1]!.r);
  }
  return { status: 'read', agent, runs, runColumns };
}
