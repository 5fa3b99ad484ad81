/**
 * An export lands all or nothing: written into a private staging directory beside `--out`, flushed,
 * then renamed into place. An existing non-empty `--out` or file is replaced only with `--overwrite`.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EtlError, IoError, UsageError } from '../../shared/errors.js';
import { outputModes } from '../../shared/output-permissions.js';
import { permissionDenied, permissionReason } from '../../shared/permission-denied.js';
import { PrivateTempDir } from '../../shared/temp/private-temp-dir.js';
import { fsyncPath } from '../fs/durable-file.js';
import { storageErrorReason } from '../write-failure.js';
import type { ExportFormat } from './export-formats.js';

/** The typed error of a storage failure on the export's path; anything else unchanged. */
export function asExportWriteFailure(error: unknown): unknown {
  if (error instanceof EtlError) return error;
  const refused = permissionReason(error);
  if (refused !== null) return permissionDenied(refused, 'export-out', 'export', error);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    storageErrorReason(error) ?? (code === 'EISDIR' || code === 'ENOTDIR' || code === 'EEXIST' ? code : null);
  if (reason === null) return error;
  return new IoError(
    'EXPORT_WRITE_FAILED',
    `Writing the export failed (${reason})`,
    {
      reason,
      remedy: 'Free space or fix the destination, then export again: no partial export was published.',
    },
    { cause: error },
  );
}

function refuse(found: 'file' | 'directory' | 'non-empty-directory', oneFile: boolean): UsageError {
  const remedy =
    found === 'directory' || (found === 'file' && !oneFile)
      ? `--out names a ${found === 'file' ? 'file' : 'directory'}; give ${oneFile ? 'a file path' : 'a directory path'}.`
      : 'Choose a new --out, or pass --overwrite to replace the previous export.';
  return new UsageError('EXPORT_OUT_EXISTS', `--out already holds a ${found.replaceAll('-', ' ')}`, {
    found,
    remedy,
  });
}

export class ExportDestination {
  private constructor(
    private readonly out: string,
    private readonly staging: PrivateTempDir,
    /** The path the export is written to inside the staging directory. */
    readonly stagedPath: string,
  ) {}

  get stagingDirectory(): string {
    return this.staging.path;
  }

  /** `html-report` is the one file `etl report` writes; every other format but archive-jsonl is a directory. */
  static prepare(format: ExportFormat | 'html-report', out: string, overwrite: boolean): ExportDestination {
    const oneFile = format === 'archive-jsonl' || format === 'html-report';
    if (existsSync(out)) {
      const isDirectory = statSync(out).isDirectory();
      if (oneFile && isDirectory) throw refuse('directory', true);
      if (!oneFile && !isDirectory) throw refuse('file', false);
      if (!overwrite && oneFile) throw refuse('file', true);
      if (!overwrite && readdirSync(out).length > 0) throw refuse('non-empty-directory', false);
    }
    try {
      mkdirSync(dirname(out), { recursive: true, mode: outputModes().dir });
      const staging = PrivateTempDir.create(dirname(out));
      return new ExportDestination(out, staging, join(staging.path, basename(out)));
    } catch (error) {
      throw asExportWriteFailure(error);
    }
  }

  /** Renames the flushed export over `--out`; a replaced directory export is removed afterwards. */
  publish(): void {
    try {
      fsyncPath(this.stagedPath);
      const previous = join(this.staging.path, 'previous');
      const replacing = existsSync(this.out) && statSync(this.out).isDirectory();
      if (replacing) renameSync(this.out, previous);
      try {
        renameSync(this.stagedPath, this.out);
      } catch (error) {
        if (replacing) renameSync(previous, this.out);
        throw error;
      }
      fsyncPath(dirname(this.out));
    } catch (error) {
      throw asExportWriteFailure(error);
    }
  }

  dispose(): void {
    this.staging.dispose();
  }
}
