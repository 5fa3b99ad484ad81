/** Each session's `file_edits` signature (file-edits-signature.ts) in a published state: how the load sees edits to refresh. */

import type { DuckDBConnection } from '@duckdb/node-api';
import { fileEditsTable } from '../../../schemas/tables.js';
import { sqlList } from '../duckdb/sql-string.js';
import type { AnyTable } from '../export/export-tables.js';
import { FILE_EDITS_SIGNATURE_SQL } from '../file-edits-signature.js';
import { bucketOf, type DatasetLayout } from './dataset-layout.js';
import type { DatasetManifest } from './dataset-manifest.js';
import { readFilesSql, stateFiles } from './dataset-reader.js';

/** Signatures by session ID; a session without rows (or a state predating the table) is absent. */
export async function publishedEditCounts(
  connection: DuckDBConnection,
  layout: DatasetLayout,
  manifest: DatasetManifest | null,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const files = [...new Set(ids.map(bucketOf))].flatMap((b) =>
    stateFiles(layout, manifest, fileEditsTable.name, b),
  );
  if (files.length === 0) return new Map();
  const reader = await connection.runAndReadAll(
    `SELECT session_id, ${FILE_EDITS_SIGNATURE_SQL} AS n FROM (${readFilesSql(fileEditsTable as unknown as AnyTable, files)})
      WHERE session_id IN (SELECT unnest(${sqlList([...ids])})) GROUP BY session_id`,
  );
  return new Map(reader.getRowObjects().map((row) => [String(row.session_id), String(row.n)]));
}
