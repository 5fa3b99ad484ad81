/**
 * `etl export`: writes warehouse tables as Parquet, Arrow IPC or JSONL files (one per table in the
 * `out` directory), or the per-session archive JSONL file `out`, each flushed to disk. `out` is the
 * private staging place of export-destination.ts, which publishes the whole export at once.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sessionsTable } from '../../../schemas/tables.js';
import { outputModes } from '../../shared/output-permissions.js';
import { fsyncPath } from '../fs/durable-file.js';
import { exportArchiveJsonl } from './archive-jsonl-export.js';
import { exportArrow } from './arrow-export.js';
import { copyTable } from './copy-export.js';
import { parseExportFilter } from './export-filter.js';
import type { ExportFormat } from './export-formats.js';
import type { ExportProgress } from './export-progress.js';
import { type AnyTable, resolveExportTables } from './export-tables.js';

export interface ExportRequest {
  format: ExportFormat;
  out: string;
  tables?: readonly string[];
  where?: string;
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
      exportArchiveJsonl(connection, where, path, progress),
    );
    progress.done('sessions', file.rows);
    return [{ table: 'sessions', file: file.path, rows: file.rows, bytes: file.bytes }];
  }
  const format = request.format;
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
