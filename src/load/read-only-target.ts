/** Read-only SQL access to either target: the DuckDB file, or the Parquet dataset's published state. */
import { statSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Sandbox } from './duckdb/query-sandbox.js';
import { withReadOnlyWarehouse } from './duckdb/read-only-query.js';
import type { TargetLocation } from './open-target.js';
import { assertDatasetDirectory, DatasetLayout } from './parquet/dataset-layout.js';
import { openDatasetReadOnly, readPublishedManifest } from './parquet/dataset-reader.js';
import { checkState, damagedStateError, explainReadFailure } from './parquet/state-integrity.js';

/**
 * Runs `work` on a sandboxed read-only connection (query-sandbox.ts): it reads the warehouse and
 * writes only where `sandbox` allows. A Parquet state whose files are missing, of another size or,
 * once a read failed, of another sha256 than its manifest records fails as DATASET_FILE_DAMAGED.
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
  } catch (error) {
    throw await explainReadFailure(new DatasetLayout(location.path), dataset.manifest, error);
  } finally {
    dataset.close();
  }
}

/** `etl verify`'s first step: every data file of a Parquet state against its size and sha256. */
export async function verifyTargetFiles(location: TargetLocation): Promise<number> {
  if (location.kind === 'duckdb') return 0;
  assertDatasetDirectory(location.path);
  const layout = new DatasetLayout(location.path);
  const manifest = readPublishedManifest(layout);
  const check = await checkState(layout, manifest);
  if (check.damaged.length > 0) throw damagedStateError(check);
  return check.filesChecked;
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
