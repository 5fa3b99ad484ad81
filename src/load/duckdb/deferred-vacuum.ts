/**
 * Row-group merging ("vacuum") at a writing run's closing checkpoint. DuckDB merges the row group a
 * run appended into the table's partly filled tail and compacts the groups its deletes thinned,
 * recompressing them: on the 1x benchmark warehouse a one-session replace checkpoints in ~29 ms
 * without it and ~85 ms with it. A small run skips it: its rows stay in a row group of their own
 * and the rows it replaced stay as deleted rows, until a run that writes a row group's worth, or
 * the first small run after `MAX_DEFERRED_RUNS` deferred ones, merges them all at once. Sixteen
 * one-session replaces averaged 56 ms of checkpoint each this way against 92 ms (merging every 8th).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { WRITER_ROW_GROUP_ROWS } from './run-memory.js';
import { writeMetaValue } from './warehouse-version.js';

/** `etl_meta` key of how many consecutive writing runs left their merge to a later one. */
const DEFERRED_VACUUM_KEY = 'vacuum_deferred_runs';

/** Bounds the deferred garbage to this many runs of fewer than a row group's rows each. */
export const MAX_DEFERRED_RUNS = 7;

/** A global setting of the run's own instance, so it ends with the run. */
export const DEFER_VACUUM_SQL = 'SET max_vacuum_tasks = 0';

export interface ClosingVacuum {
  defer: boolean;
  /** The count to store for the next run. */
  deferredRuns: number;
}

/** Whether the closing checkpoint of a run that wrote `rowsWritten` session rows merges row groups. */
export function closingVacuum(rowsWritten: number, deferredRuns: number): ClosingVacuum {
  const defer = rowsWritten < WRITER_ROW_GROUP_ROWS && deferredRuns < MAX_DEFERRED_RUNS;
  return { defer, deferredRuns: defer ? deferredRuns + 1 : 0 };
}

export async function storedDeferredRuns(connection: DuckDBConnection): Promise<number> {
  const stored = await connection.runAndReadAll('SELECT value FROM etl_meta WHERE key = $1', [
    DEFERRED_VACUUM_KEY,
  ]);
  const value = stored.currentRowCount === 0 ? 0 : Number(stored.getRows()[0]![0]);
  // An unreadable count merges at once rather than defer without bound.
  return Number.isSafeInteger(value) && value >= 0 ? value : MAX_DEFERRED_RUNS;
}

/** Runs inside the caller's transaction. */
export async function recordDeferredRuns(connection: DuckDBConnection, deferredRuns: number): Promise<void> {
  await writeMetaValue(connection, DEFERRED_VACUUM_KEY, String(deferredRuns));
}
