/** Opens the warehouse target a run writes to. */
import { acquireRunLock, type RunLock } from '../shared/process/run-lock.js';
import { DatasetLayout } from './parquet/dataset-layout.js';
import type { WarehouseTarget } from './target.js';

export interface TargetLocation {
  kind: 'duckdb' | 'parquet';
  path: string;
}

/**
 * Loads the target's modules (only the one in use) and returns its opener: a caller can then start
 * the open, which DuckDB performs on its own threads, and do other work on this one meanwhile.
 */
export async function targetOpener(location: TargetLocation): Promise<() => Promise<WarehouseTarget>> {
  if (location.kind === 'duckdb') {
    const { DuckDbTarget } = await import('./duckdb/duckdb-target.js');
    return () => DuckDbTarget.open(location.path);
  }
  const { ParquetTarget } = await import('./parquet/parquet-target.js');
  return () => ParquetTarget.open(location.path);
}

/** Where the target's run lock lives: beside the DuckDB file, or inside the Parquet dataset directory. */
export function targetLockBase(location: TargetLocation): string {
  return location.kind === 'duckdb' ? location.path : new DatasetLayout(location.path).lockBase;
}

/** The single-writer lock of a run; the Parquet target takes its own, in the dataset, when it opens. */
export function acquireTargetLock(location: TargetLocation): RunLock {
  return location.kind === 'duckdb' ? acquireRunLock(location.path) : { release: () => {} };
}
