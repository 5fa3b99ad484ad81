/** The redaction policy a warehouse stores: DuckDB in `etl_meta`, a Parquet dataset in its manifest. */
import type { DuckDBConnection } from '@duckdb/node-api';
import { parsePolicy, REDACTION_POLICY_KEY, type RedactionPolicy } from '../shared/redaction-policy.js';
import { storedMeta } from './duckdb/warehouse-version.js';
import type { TargetLocation } from './open-target.js';
import { DatasetLayout } from './parquet/dataset-layout.js';
import { readCurrentManifest } from './parquet/dataset-manifest.js';

export async function storedRedactionPolicy(
  target: TargetLocation,
  connection: DuckDBConnection,
): Promise<RedactionPolicy | null> {
  const stored =
    target.kind === 'duckdb'
      ? (await storedMeta(connection))?.get(REDACTION_POLICY_KEY)
      : readCurrentManifest(new DatasetLayout(target.path))?.redaction;
  return parsePolicy(stored);
}
