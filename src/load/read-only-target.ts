/** Read-only SQL access to either target: the DuckDB file, or the Parquet dataset's published state. */
import { statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Sandbox } from './duckdb/query-sandbox.js';
import { withReadOnlyWarehouse } from './duckdb/read-only-query.js';
import type { TargetLocation } from './open-target.js';
import { openDatasetReadOnly } from './parquet/dataset-reader.js';

/**
 * Runs `work` on a sandboxed read-only connection (query-sandbox.ts): it reads the warehouse and
 * writes only where `sandbox` allows.
 */
export async function withReadOnlyTarget<T>(
  location: TargetLocation,
  work: (connection: DuckDBConnection) => Promise<T>,
  sandbox: Sandbox = {},
): Promise<T> {
  if (location.kind === 'duckdb') return withReadOnlyWarehouse(location.path, work, sandbox);
  const dataset = await openDatasetReadOnly(location.path, sandbox);
  try {
    return await work(dataset.connection);
  } finally {
    dataset.close();
  }
}

/** Bytes on disk: the DuckDB file, or the files of the published Parquet state. */
export async function targetSizeBytes(location: TargetLocation): Promise<number> {
  if (location.kind === 'duckdb') return statSync(location.path).size;
  const dataset = await openDatasetReadOnly(location.path);
  dataset.close();
  return Object.values(dataset.manifest.tables)
    .flatMap((t) => t.files)
    .reduce((sum, f) => sum + f.bytes, 0);
}
