/** Opens the warehouse target a run writes to. */
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
