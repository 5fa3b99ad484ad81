/** Opens the warehouse target a run writes to. */
import { DuckDbTarget } from './duckdb/duckdb-target.js';
import { ParquetTarget } from './parquet/parquet-target.js';
import type { WarehouseTarget } from './target.js';

export interface TargetLocation {
  kind: 'duckdb' | 'parquet';
  path: string;
}

export async function openTarget(location: TargetLocation): Promise<WarehouseTarget> {
  if (location.kind === 'duckdb') return DuckDbTarget.open(location.path);
  return ParquetTarget.open(location.path);
}
