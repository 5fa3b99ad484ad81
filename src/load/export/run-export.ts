/**
 * `etl export`: writes warehouse tables as Parquet, Arrow IPC or JSONL files (one per table in the
 * `out` directory), or the per-session archive JSONL file `out`, each flushed to disk. `out` is the
 * private staging place of export-destination.ts, which publishes the whole export at once.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { CONTENT_TABLES, sessionsTable } from '../../../schemas/tables.js';
import { outputModes } from '../../shared/output-permissions.js';
import { sessionArchiveKey } from '../../transform/archive-keys.js';
import { sqlString } from '../duckdb/sql-string.js';
import { fsyncPath } from '../fs/durable-file.js';
import { exportArchiveJsonl } from './archive-jsonl-export.js';
import { exportArrow } from './arrow-export.js';
import { contentFilter, type FeedWindow, feedSql } from './change-feed.js';
import { copyQueryTo, copyTable, exportQueryFailed, PARQUET_COPY_OPTIONS } from './copy-export.js';
import { parseExportFilter } from './export-filter.js';
import type { ExportFormat } from './export-formats.js';
import type { ExportProgress } from './export-progress.js';
import { type AnyTable, resolveExportTables } from './export-tables.js';

export interface ExportRequest {
  format: ExportFormat;
  out: string;
  tables?: readonly string[];
  where?: string;
  /** A change feed export: only this window's changed sessions (parquet: with a `changes` file). */
  feed?: FeedWindow;
}

export interface ExportedFile {
  table: string;
  file: string;
  rows: number;
  bytes: number;
}

const EXTENSION: Record<Exclude<ExportFormat, 'archive-jsonl'>, string> = {
  parquet: 'parquet',
  arrow: 'arrow',
  jsonl: 'jsonl',
};

async function staged(
  directory: string,
  name: string,
  write: (path: string) => Promise<number>,
): Promise<ExportedFile & { path: string }> {
  mkdirSync(directory, { recursive: true, mode: outputModes().dir });
  const path = join(directory, name);
  const rows = await write(path);
  chmodSync(path, outputModes().file);
  fsyncPath(path);
  return { table: '', file: name, rows, bytes: statSync(path).size, path };
}

export async function runExport(
  connection: DuckDBConnection,
  request: ExportRequest,
  progress: ExportProgress,
): Promise<ExportedFile[]> {
  const filter = await parseExportFilter(connection, request.where);
  if (request.format === 'archive-jsonl') {
    const where = filter.forTable(sessionsTable as unknown as AnyTable);
    const file = await staged(dirname(request.out), basename(request.out), (path) =>
      exportArchiveJsonl(connection, where, path, progress, request.feed),
    );
    progress.done('sessions', file.rows);
    return [{ table: 'sessions', file: file.path, rows: file.rows, bytes: file.bytes }];
  }
  const format = request.format;
  if (request.feed !== undefined && format === 'parquet')
    return exportFeedParquet(connection, request, progress);
  const files: ExportedFile[] = [];
  // Every table's filter is checked before the first file is written.
  const tables = resolveExportTables(request.tables).map((table) => ({
    table,
    where: filter.forTable(table),
  }));
  for (const { table, where } of tables) {
    const file = await staged(request.out, `${table.name}.${EXTENSION[format]}`, (path) =>
      format === 'arrow'
        ? exportArrow(connection, table, where, path, progress)
        : copyTable(connection, table, where, format, path),
    );
    progress.done(table.name, file.rows);
    files.push({ table: table.name, file: file.path, rows: file.rows, bytes: file.bytes });
  }
  return files;
}

/** The `changes` file's columns: one row per changed session, like an archive change line's head. */
function changesSelect(feed: FeedWindow): string {
  const origin = 'origin' in sessionsTable.columns ? ', s.origin' : '';
  const columns = `f.session_id, ${sqlString(sessionArchiveKey(''))} || f.session_id AS session_key,
    f.feed_change AS change, f.feed_run AS changed_in_run, f.feed_seq AS change_seq, s.view_digest,
    coalesce(st.present_in_source, true) AS present_in_source${origin}`;
  return `${feedSql(feed, columns)} ORDER BY f.session_id`;
}

/** `changes.parquet` plus each content table's rows of the sessions whose content changed. */
async function exportFeedParquet(
  connection: DuckDBConnection,
  request: ExportRequest,
  progress: ExportProgress,
): Promise<ExportedFile[]> {
  const feed = request.feed!;
  const changes = await staged(request.out, 'changes.parquet', async (path) => {
    try {
      return await copyQueryTo(connection, changesSelect(feed), path, PARQUET_COPY_OPTIONS);
    } catch (error) {
      throw exportQueryFailed(sessionsTable as unknown as AnyTable, error);
    }
  });
  progress.done('changes', changes.rows);
  const files: ExportedFile[] = [
    { table: 'changes', file: changes.path, rows: changes.rows, bytes: changes.bytes },
  ];
  for (const table of CONTENT_TABLES as unknown as AnyTable[]) {
    const file = await staged(request.out, `${table.name}.parquet`, (path) =>
      copyTable(connection, table, contentFilter(feed), 'parquet', path),
    );
    progress.done(table.name, file.rows);
    files.push({ table: table.name, file: file.path, rows: file.rows, bytes: file.bytes });
  }
  return files;
}
