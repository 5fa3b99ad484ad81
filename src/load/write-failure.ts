/**
 * Turns an OS write error on the warehouse path (disk full, I/O, quota) into WAREHOUSE_WRITE_FAILED,
 * and a permission refusal (EACCES, EPERM, EROFS) into PERMISSION_DENIED, both exit 4: Node gives an
 * errno code, DuckDB only a message, which is matched. Details never hold a path.
 */
import type { DetailsOf } from '../shared/diagnostic-catalogue.js';
import { EtlError, IoError } from '../shared/errors.js';
import { permissionDenied, permissionReason } from '../shared/permission-denied.js';

export type WriteOperation =
  | 'open'
  | 'lock'
  | 'transaction'
  | 'run-record'
  | 'checkpoint'
  | 'state-files'
  | 'manifest'
  | 'publish-current'
  | 'collect-states';

/** OS errors that mean the storage refused the write; anything else stays a bug (INTERNAL_ERROR). */
const STORAGE_ERRORS: ReadonlyArray<[code: string, text: RegExp]> = [
  ['ENOSPC', /no space left on device/i],
  ['EIO', /input\/output error/i],
  ['EDQUOT', /disk quota exceeded/i],
  ['EROFS', /read-only file system/i],
  ['EFBIG', /file too large/i],
  ['EACCES', /permission denied/i],
  ['EPERM', /operation not permitted/i],
  ['EMFILE', /too many open files/i],
];

/** The errno code of a storage error, from Node's `code` or DuckDB's "IO Error: …" message. */
export function storageErrorReason(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string') return STORAGE_ERRORS.some(([known]) => known === code) ? code : null;
  const named = STORAGE_ERRORS.find(([, text]) => text.test(error.message))?.[0] ?? null;
  // DuckDB's "IO Error" is an I/O failure even when the OS text is not one of the known ones.
  return named ?? (/^IO Error\b/.test(error.message) ? 'EIO' : null);
}

/** What a caller may add to the details, e.g. that the commit point was crossed. */
type WriteFailureExtra = Pick<DetailsOf<'WAREHOUSE_WRITE_FAILED'>, 'published'>;

/** The typed error for `error` when it is a storage failure; otherwise `error` unchanged. */
export function asWriteFailure(
  error: unknown,
  target: 'duckdb' | 'parquet',
  operation: WriteOperation,
  extra: WriteFailureExtra = {},
): unknown {
  if (error instanceof EtlError) return error;
  const refused = permissionReason(error);
  if (refused !== null)
    return permissionDenied(
      refused,
      target === 'duckdb' ? 'warehouse' : 'dataset',
      operation,
      error,
      extra.published,
    );
  const reason = storageErrorReason(error);
  if (reason === null) return error;
  return new IoError(
    'WAREHOUSE_WRITE_FAILED',
    `Writing the warehouse failed (${reason})`,
    {
      target,
      operation,
      reason,
      ...extra,
      remedy:
        'Free space or fix the storage, then run again: committed sessions are intact and the next run converges.',
    },
    { cause: error },
  );
}

/** Runs `work`, rethrowing a storage failure as WAREHOUSE_WRITE_FAILED or PERMISSION_DENIED. */
export async function guardWrite<T>(
  target: 'duckdb' | 'parquet',
  operation: WriteOperation,
  work: () => Promise<T> | T,
  extra?: WriteFailureExtra,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asWriteFailure(error, target, operation, extra);
  }
}
