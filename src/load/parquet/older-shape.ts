/**
 * A state written by an older build: a file lacking a column of this build's table, a content table
 * the manifest does not list, or an older schema version. Its files are rewritten rather than linked
 * and its sources are read once more, so stored identities converge on this build's.
 */
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { CONTENT_TABLES } from '../../../schemas/tables.js';
import { sqlString } from '../duckdb/sql-string.js';
import { WAREHOUSE_SCHEMA_VERSION } from '../duckdb/warehouse-version.js';
import type { AnyTable } from '../export/export-tables.js';
import type { DatasetLayout } from './dataset-layout.js';
import type { DatasetManifest } from './dataset-manifest.js';

const sqlList = (values: readonly string[]): string => `[${values.map(sqlString).join(', ')}]`;

/** Whether any of `files` lacks a column of `table` (read from the Parquet footers only). */
export async function lacksColumns(
  connection: DuckDBConnection,
  table: AnyTable,
  files: readonly string[],
): Promise<boolean> {
  if (files.length === 0) return false;
  const reader = await connection.runAndReadAll(
    `SELECT count(*) FROM (SELECT file_name FROM parquet_schema(${sqlList(files)}) GROUP BY file_name
      HAVING list_has_all(list(name), ${sqlList(table.columnNames)}))`,
  );
  return Number(reader.getRows()[0]?.[0]) < new Set(files).size;
}

/** Whether the content rows of `manifest`'s state predate this build's tables. */
export async function predatesThisBuild(
  connection: DuckDBConnection,
  layout: DatasetLayout,
  manifest: DatasetManifest,
): Promise<boolean> {
  if (manifest.schemaVersion < WAREHOUSE_SCHEMA_VERSION) return true;
  for (const table of CONTENT_TABLES as unknown as AnyTable[]) {
    const listed = manifest.tables[table.name];
    if (listed === undefined) return true;
    const files = listed.files.map((f) => join(layout.stateDir(manifest.stateId), f.path));
    if (await lacksColumns(connection, table, files)) return true;
  }
  return false;
}
