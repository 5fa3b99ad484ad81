/** `etl export`: tables as Parquet/Arrow/JSONL files, or one archive JSON line per session. */
import { basename, join, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import {
  checkConsumerName,
  countFeed,
  type FeedCounts,
  type FeedWindow,
  readFeedWindow,
} from '../../load/export/change-feed.js';
import { asExportWriteFailure, ExportDestination } from '../../load/export/export-destination.js';
import type { ExportFormat } from '../../load/export/export-formats.js';
import { createExportProgress } from '../../load/export/export-progress.js';
import { withFeedCursor } from '../../load/export/feed-cursor.js';
import { type ExportedFile, type ExportRequest, runExport } from '../../load/export/run-export.js';
import type { TargetLocation } from '../../load/open-target.js';
import { withReadOnlyTarget } from '../../load/read-only-target.js';
import { UsageError } from '../../shared/errors.js';
import { faultPoint } from '../../shared/fault-injection.js';
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
  changes?: boolean;
  consumer?: string;
}

interface FeedRead {
  window: FeedWindow;
  counts: FeedCounts;
}

function usage(message: string, reason: string): UsageError {
  return new UsageError('USAGE_ERROR', message, { reason });
}

/** The consumer of a `--changes` export (checked), or null for a plain export. */
function feedConsumer(flags: ExportFlags): string | null {
  if (flags.changes !== true) {
    if (flags.consumer !== undefined) throw usage('--consumer needs --changes', 'consumer-without-changes');
    return null;
  }
  if (flags.consumer === undefined)
    throw usage('--changes needs --consumer NAME', 'changes-without-consumer');
  if (flags.format !== 'archive-jsonl' && flags.format !== 'parquet')
    throw usage('--changes writes archive-jsonl or parquet', 'changes-format');
  if (flags.tables !== undefined || flags.where !== undefined)
    throw usage('--changes chooses the sessions itself; drop --tables and --where', 'changes-filter');
  return checkConsumerName(flags.consumer);
}

/** Writes the export into its staging place and publishes it; `feed` reads the change window first. */
async function writeExport(
  flags: ExportFlags,
  target: TargetLocation,
  out: string,
  progress: ReturnType<typeof createExportProgress>,
  feed: ((connection: DuckDBConnection) => Promise<FeedRead>) | null,
): Promise<{ files: ExportedFile[]; read: FeedRead | null }> {
  const destination = ExportDestination.prepare(flags.format, out, flags.overwrite === true);
  try {
    const done = await withReadOnlyTarget(
      target,
      async (connection) => {
        const read = feed === null ? null : await feed(connection);
        const request: ExportRequest = {
          format: flags.format,
          out: destination.stagedPath,
          tables: flags.tables
            ?.split(',')
            .map((t) => t.trim())
            .filter((t) => t.length > 0),
          where: flags.where,
          ...(read === null ? {} : { feed: read.window }),
        };
        const files = await runExport(connection, request, progress).catch((error: unknown) => {
          throw asExportWriteFailure(error);
        });
        return { files, read };
      },
      { writableDirectories: [destination.stagingDirectory] },
    );
    destination.publish();
    const oneFile = flags.format === 'archive-jsonl';
    const files = done.files.map((f) => ({ ...f, file: oneFile ? out : join(out, basename(f.file)) }));
    return { files, read: done.read };
  } finally {
    destination.dispose();
  }
}

function feedSummary(read: FeedRead): string {
  const { consumer, toSeq } = read.window;
  const { sessions, inserted, replaced, absent } = read.counts;
  if (sessions === 0)
    return `No session changed since consumer ${consumer}'s last export: wrote an empty export (cursor at ${toSeq}).`;
  return `Consumer ${consumer}: ${sessions} changed sessions (${inserted} inserted, ${replaced} replaced, ${absent} absent); cursor now at ${toSeq}.`;
}

export async function exportCommand(flags: ExportFlags, output: Output): Promise<number> {
  const target = parseTargetSpec(flags.target);
  const consumer = feedConsumer(flags);
  const progress = createExportProgress(!output.json && process.stderr.isTTY === true);
  const out = resolve(flags.out);
  const { files, read } = await withOutputPermissions(flags.sharedPermissions ? 'shared' : 'private', () => {
    if (consumer === null) return writeExport(flags, target, out, progress, null);
    return withFeedCursor(target, async (acknowledge) => {
      const written = await writeExport(flags, target, out, progress, async (connection) => {
        const window = await readFeedWindow(connection, consumer);
        return { window, counts: await countFeed(connection, window) };
      });
      faultPoint('export-published');
      const { window } = written.read!;
      await acknowledge({ consumer, toSeq: window.toSeq, toRun: window.toRun, atMs: Date.now() });
      return written;
    });
  });
  const rows = files.map((f) => ({ table: f.table, rows: f.rows, bytes: f.bytes, file: f.file }));
  const table = formatTable(['table', 'rows', 'bytes', 'file'], rows);
  const changes =
    read === null
      ? {}
      : {
          changes: {
            consumer: read.window.consumer,
            fromSeq: read.window.fromSeq,
            toSeq: read.window.toSeq,
            toRun: read.window.toRun,
            ...read.counts,
            message: feedSummary(read),
          },
        };
  output.success(
    { export: { format: flags.format, files: rows, ...changes } },
    read === null ? table : `${feedSummary(read)}\n${table}`,
  );
  return 0;
}
