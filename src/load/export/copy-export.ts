/** Parquet and JSONL exports through DuckDB's own `COPY … TO`, which streams with bounded memory. */
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError, UsageError } from '../../shared/errors.js';
import { outputModes } from '../../shared/output-permissions.js';
import { engineErrorLine } from '../duckdb/engine-error-text.js';
import { sqlString } from '../duckdb/sql-string.js';
import { asExportWriteFailure } from './export-destination.js';
import { type AnyTable, exportSelect } from './export-tables.js';

export type CopyFormat = 'parquet' | 'jsonl';

/** zstd and DuckDB's default row-group size (122 880 rows): good compression, good pruning. */
export const PARQUET_COPY_OPTIONS = 'FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880';

const COPY_OPTIONS: Record<CopyFormat, string> = {
  parquet: PARQUET_COPY_OPTIONS,
  jsonl: 'FORMAT json',
};

/**
 * `select` with its JSON columns as VARCHAR: DuckDB annotates JSON columns in Parquet with the JSON
 * logical type, which Polars reads as binary and PyArrow as an extension type; plain UTF-8 text is
 * read as text everywhere (etl's own reads cast it back to JSON).
 */
async function jsonAsText(connection: DuckDBConnection, select: string): Promise<string> {
  const described = await connection.runAndReadAll(`DESCRIBE (${select})`);
  const json = described
    .getRowObjects()
    .filter((column) => column.column_type === 'JSON')
    .map((column) => `"${String(column.column_name).replaceAll('"', '""')}"`);
  if (json.length === 0) return select;
  return `SELECT * REPLACE (${json.map((c) => `CAST(${c} AS VARCHAR) AS ${c}`).join(', ')}) FROM (${select})`;
}

/** Copies `select` into `path` (created with the output permissions) and returns the row count. */
export async function copyQueryTo(
  connection: DuckDBConnection,
  select: string,
  path: string,
  options: string,
): Promise<number> {
  const previousUmask = process.umask(outputModes().umask);
  try {
    const rows = options.startsWith('FORMAT parquet') ? await jsonAsText(connection, select) : select;
    const reader = await connection.runAndReadAll(`COPY (${rows}) TO ${sqlString(path)} (${options})`);
    return Number(reader.getRows()[0]?.[0] ?? 0);
  } finally {
    process.umask(previousUmask);
  }
}

export async function copyTable(
  connection: DuckDBConnection,
  table: AnyTable,
  where: string | undefined,
  format: CopyFormat,
  path: string,
): Promise<number> {
  try {
    return await copyQueryTo(connection, exportSelect(table, where, 'native'), path, COPY_OPTIONS[format]);
  } catch (error) {
    throw exportQueryFailed(table, error);
  }
}

/** A storage failure is EXPORT_WRITE_FAILED or PERMISSION_DENIED; any other failure is the query's. */
export function exportQueryFailed(table: AnyTable, error: unknown): EtlError {
  const storage = asExportWriteFailure(error);
  if (storage instanceof EtlError) return storage;
  const reason = engineErrorLine(error);
  return new UsageError('EXPORT_QUERY_FAILED', `Exporting ${table.name} failed: ${reason}`, {
    table: table.name,
  });
}
