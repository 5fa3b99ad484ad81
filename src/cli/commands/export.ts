/** `etl export`: tables as Parquet/Arrow/JSONL files, or one archive JSON line per session. */
import { basename, join, resolve } from 'node:path';
import { asExportWriteFailure, ExportDestination } from '../../load/export/export-destination.js';
import type { ExportFormat } from '../../load/export/export-formats.js';
import { createExportProgress } from '../../load/export/export-progress.js';
import { runExport } from '../../load/export/run-export.js';
import { withReadOnlyTarget } from '../../load/read-only-target.js';
import { withOutputPermissions } from '../../shared/output-permissions.js';
import { formatTable } from '../format-table.js';
import type { Output } from '../output.js';
import { parseTargetSpec } from '../target-spec.js';

export interface ExportFlags {
  format: ExportFormat;
  out: string;
  tables?: string;
  where?: string;
  target?: string;
  sharedPermissions?: boolean;
  overwrite?: boolean;
}

export async function exportCommand(flags: ExportFlags, output: Output): Promise<number> {
  const target = parseTargetSpec(flags.target);
  const tables = flags.tables
    ?.split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
  const progress = createExportProgress(!output.json && process.stderr.isTTY === true);
  const out = resolve(flags.out);
  const files = await withOutputPermissions(flags.sharedPermissions ? 'shared' : 'private', async () => {
    const destination = ExportDestination.prepare(flags.format, out, flags.overwrite === true);
    try {
      const written = await withReadOnlyTarget(
        target,
        (connection) =>
          runExport(
            connection,
            { format: flags.format, out: destination.stagedPath, tables, where: flags.where },
            progress,
          ).catch((error: unknown) => {
            throw asExportWriteFailure(error);
          }),
        { writableDirectories: [destination.stagingDirectory] },
      );
      destination.publish();
      return written.map((f) => ({
        ...f,
        file: flags.format === 'archive-jsonl' ? out : join(out, basename(f.file)),
      }));
    } finally {
      destination.dispose();
    }
  });
  const rows = files.map((f) => ({ table: f.table, rows: f.rows, bytes: f.bytes, file: f.file }));
  output.success(
    { export: { format: flags.format, files: rows } },
    formatTable(['table', 'rows', 'bytes', 'file'], rows),
  );
  return 0;
}
