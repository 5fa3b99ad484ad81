/**
 * The published state as a run may build on it: every data file checked against its manifest's
 * size and sha256, the damaged ones set aside (damaged-files.ts) with a diagnostic each.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { sessionStateTable } from '../../../schemas/ledger-tables.js';
import type { Diagnostic } from '../../shared/diagnostic.js';
import { sqlList } from '../duckdb/sql-string.js';
import { setAsideDamage } from './damaged-files.js';
import { BUCKET_SQL, type DatasetLayout } from './dataset-layout.js';
import type { DatasetManifest } from './dataset-manifest.js';
import { stateFiles } from './dataset-reader.js';
import { checkState, type DamagedFile } from './state-integrity.js';

export interface CheckedState {
  /** The published manifest without damaged files, or null for a dataset never published. */
  previous: DatasetManifest | null;
  rebuildBuckets: ReadonlySet<string>;
  diagnostics: Diagnostic[];
}

/** Archived sessions per bucket that the last run found in no source, from an intact ledger. */
async function absentSessionsByBucket(
  reader: DuckDBConnection,
  layout: DatasetLayout,
  manifest: DatasetManifest,
  damaged: readonly DamagedFile[],
): Promise<Map<string, number> | null> {
  if (damaged.some((d) => d.table === sessionStateTable.name)) return null;
  const files = stateFiles(layout, manifest, sessionStateTable.name);
  const counts = new Map<string, number>();
  if (files.length === 0) return counts;
  const result = await reader.runAndReadAll(
    `SELECT ${BUCKET_SQL} AS bucket, count(*)::INTEGER FROM read_parquet(${sqlList(files)}) WHERE NOT present_in_source GROUP BY ALL`,
  );
  for (const [bucket, count] of result.getRows()) counts.set(String(bucket), Number(count));
  return counts;
}

export async function checkPublishedState(
  layout: DatasetLayout,
  published: DatasetManifest | null,
  reader: DuckDBConnection,
): Promise<CheckedState> {
  if (published === null) return { previous: null, rebuildBuckets: new Set(), diagnostics: [] };
  const { damaged } = await checkState(layout, published);
  if (damaged.length === 0) return { previous: published, rebuildBuckets: new Set(), diagnostics: [] };
  const absent = await absentSessionsByBucket(reader, layout, published, damaged);
  const { sound, rebuildBuckets, diagnostics } = setAsideDamage(published, damaged, (bucket) =>
    absent === null ? null : (absent.get(bucket) ?? 0),
  );
  return { previous: sound, rebuildBuckets, diagnostics };
}
