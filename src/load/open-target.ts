/** Opens the warehouse target a run writes to. */
import type { WarehouseTarget } from './target.js';

export interface TargetLocation {
  kind: 'duckdb' | 'parquet';
  path: string;
}

export async function openTarget(location: TargetLocation): Promise<WarehouseTarget> {
  // Each target's modules load only when it is the one in use.
  if (location.kind === 'duckdb') {
    const { DuckDbTarget } = await import('./duckdb/duckdb-target.js');
    return DuckDbTarget.open(location.path);
  }
  const { ParquetTarget } = await import('./parquet/parquet-target.js');
  return ParquetTarget.open(location.path);
}
