/**
 * `etl export`: writes warehouse tables as Parquet, Arrow IPC or JSONL files (one per table in the
 * `--out` directory), or the per-session archive JSONL file. Every file is staged privately and
 * renamed into place owner-only, so a failed export leaves no partial file behind.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { outputModes } from '../../shared/output-permissions.js';
import { PrivateTempDir } from '../../shared/temp/private-temp-dir.js';
import { publishFile } from '../fs/durable-file.js';
import { exportArchiveJsonl } from './archive-jsonl-export.js';
import { exportArrow } from './arrow-export.js';
import { copyTable } from './copy-export.js';
import type { ExportFormat } from './export-formats.js';
import type { ExportProgress } from './export-progress.js';
import { resolveExportTables } from './export-tables.js';

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
  write: (tempPath: string) => Promise<number>,
): Promise<ExportedFile & { path: string }> {
  mkdirSync(directory, { recursive: true, mode: outputModes().dir });
  const temp = PrivateTempDir.create(directory);
  try {
    const tempPath = temp.file(name);
    const rows = await write(tempPath);
    chmodSync(tempPath, outputModes().file);
    const path = join(directory, name);
    publishFile(tempPath, path);
    return { table: '', file: name, rows, bytes: statSync(path).size, path };
  } finally {
    temp.dispose();
  }
}

export async function runExport(
  connection: DuckDBConnection,
  request: ExportRequest,
  progress: ExportProgress,
): Promise<ExportedFile[]> {
  if (request.format === 'archive-jsonl') {
    const file = await staged(dirname(request.out), basename(request.out), (path) =>
      exportArchiveJsonl(connection, request.where, path, progress),
    );
    progress.done('sessions', file.rows);
    return [{ table: 'sessions', file: file.path, rows: file.rows, bytes: file.bytes }];
  }
  const format = request.format;
  const files: ExportedFile[] = [];
  for (const table of resolveExportTables(request.tables)) {
    const file = await staged(request.out, `${table.name}.${EXTENSION[format]}`, (path) =>
      format === 'arrow'
        ? exportArrow(connection, table, request.where, path, progress)
        : copyTable(connection, table, request.where, format, path),
    );
    progress.done(table.name, file.rows);
    files.push({ table: table.name, file: file.path, rows: file.rows, bytes: file.bytes });
  }
  return files;
}
