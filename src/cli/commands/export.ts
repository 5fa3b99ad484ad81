/** `etl export`: tables as Parquet/Arrow/JSONL files, or one archive JSON line per session. */
import { resolve } from 'node:path';
import { withReadOnlyWarehouse } from '../../load/duckdb/read-only-query.js';
import { createExportProgress } from '../../load/export/export-progress.js';
import { type ExportFormat, runExport } from '../../load/export/run-export.js';
import { UsageError } from '../../shared/errors.js';
import { formatTable } from '../format-table.js';
import type { Output } from '../output.js';
import { parseTargetSpec } from '../target-spec.js';

export interface ExportFlags {
  format: ExportFormat;
  out: string;
  tables?: string;
  where?: string;
  target?: string;
}

export async function exportCommand(flags: ExportFlags, output: Output): Promise<number> {
  const target = parseTargetSpec(flags.target);
  if (target.kind !== 'duckdb')
    throw new UsageError('TARGET_UNSUPPORTED', 'etl export reads a DuckDB warehouse', {});
  const tables = flags.tables
    ?.split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  const progress = createExportProgress(!output.json && process.stderr.isTTY === true);
  const files = await withReadOnlyWarehouse(target.path, (connection) =>
    runExport(
      connection,
      { format: flags.format, out: resolve(flags.out), tables, where: flags.where },
      progress,
    ),
  );
  const rows = files.map((f) => ({ table: f.table, rows: f.rows, bytes: f.bytes, file: f.file }));
  output.success(
    { export: { format: flags.format, files: rows } },
    formatTable(['table', 'rows', 'bytes', 'file'], rows),
  );
  return 0;
}
