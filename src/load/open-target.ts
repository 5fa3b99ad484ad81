/** Opens the warehouse target a run writes to. */
import { UsageError } from '../shared/errors.js';
import { DuckDbTarget } from './duckdb/duckdb-target.js';
import type { WarehouseTarget } from './target.js';

export interface TargetLocation {
  kind: 'duckdb' | 'parquet';
  path: string;
}

export async function openTarget(location: TargetLocation): Promise<WarehouseTarget> {
  if (location.kind === 'duckdb') return DuckDbTarget.open(location.path);
  throw new UsageError('TARGET_UNSUPPORTED', 'The Parquet target is not available in this build', {
    kind: location.kind,
  });
}
