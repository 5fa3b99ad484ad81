/**
 * The check of a published state's data files against its manifest: each file must exist with the
 * recorded size and sha256. Damage is named by table and partition only, never by path.
 */
import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { EtlError, IntegrityError } from '../../shared/errors.js';
import type { DatasetLayout } from './dataset-layout.js';
import type { DatasetManifest, ManifestFile } from './dataset-manifest.js';

export type FileDamage = 'missing' | 'size' | 'sha256';

export interface DamagedFile {
  table: string;
  partition: string | null;
  damage: FileDamage;
}

export interface StateCheck {
  filesChecked: number;
  damaged: DamagedFile[];
}

export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The damage of one file, or null when it matches its manifest entry. */
async function damageOf(path: string, file: ManifestFile, digests: boolean): Promise<FileDamage | null> {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isFile()) return 'missing';
  if (stats.size !== file.bytes) return 'size';
  // A manifest written before digests were recorded vouches for sizes only.
  if (!digests || file.sha256 === undefined) return null;
  return (await fileSha256(path)) === file.sha256 ? null : 'sha256';
}

/**
 * Checks every data file of `manifest`: sizes always, sha256 digests unless `digests` is false
 * (a cheap check for readers that only need to fail typed).
 */
export async function checkState(
  layout: DatasetLayout,
  manifest: DatasetManifest,
  digests = true,
): Promise<StateCheck> {
  const damaged: DamagedFile[] = [];
  let filesChecked = 0;
  for (const [table, { files }] of Object.entries(manifest.tables)) {
    for (const file of files) {
      filesChecked += 1;
      const damage = await damageOf(join(layout.stateDir(manifest.stateId), file.path), file, digests);
      if (damage !== null) damaged.push({ table, partition: file.partition, damage });
    }
  }
  return { filesChecked, damaged };
}

export function damagedStateError(check: StateCheck): IntegrityError<'DATASET_FILE_DAMAGED'> {
  return new IntegrityError(
    'DATASET_FILE_DAMAGED',
    `${check.damaged.length} data file(s) of the published Parquet state are damaged`,
    {
      filesChecked: check.filesChecked,
      damaged: check.damaged.slice(0, 50),
      remedy:
        'Run etl run: it rebuilds the damaged partitions from the Cursor data; sessions the sources no longer hold come back only from a backup of the dataset.',
    },
  );
}

/** DuckDB errors about the statement itself, which no damaged file causes. */
const STATEMENT_ERROR = /\b(Parser|Binder|Catalog|Permission) Error\b/;

/**
 * Whether `error` (or the DuckDB error it wraps) may be a failure to read a file of the state: it
 * names a file of the state, or is any error but one about the statement (a damaged file's decoder
 * errors, such as Thrift's, name no file).
 */
function readFailed(error: unknown, stateDir: string): boolean {
  if (error instanceof EtlError && error.code === 'DATASET_FILE_DAMAGED') return false;
  const messages = [error, (error as { cause?: unknown } | null)?.cause].map((e) =>
    e instanceof Error ? e.message : '',
  );
  return messages.some((m) => m.includes(stateDir)) || !messages.some((m) => STATEMENT_ERROR.test(m));
}

/** DATASET_FILE_DAMAGED when a read of the state failed on a damaged file; otherwise `error`. */
export async function explainReadFailure(
  layout: DatasetLayout,
  manifest: DatasetManifest,
  error: unknown,
): Promise<unknown> {
  if (!readFailed(error, layout.stateDir(manifest.stateId))) return error;
  const check = await checkState(layout, manifest);
  return check.damaged.length > 0 ? damagedStateError(check) : error;
}
