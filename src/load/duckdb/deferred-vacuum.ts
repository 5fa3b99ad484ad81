/**
 * Row-group merging at a writing run's closing checkpoint: a small run skips it, leaving its rows
 * in a group of their own and replaced rows deleted, until a run writes a row group's worth or
 * `MAX_DEFERRED_RUNS` small runs deferred; then everything is merged at once.
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
