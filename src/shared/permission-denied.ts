/**
 * EACCES, EPERM and EROFS on a path etl writes: exit 4 with PERMISSION_DENIED, the kind of path and
 * a remedy that fits (a read-only file system is not fixed by chmod). Node reports an errno code,
 * DuckDB only its message, whose OS text is matched. Details never hold the path itself.
 */
import type { DetailsOf } from './diagnostic-catalogue.js';
import { IoError } from './errors.js';

export type PathKind = DetailsOf<'PERMISSION_DENIED'>['pathKind'];
type Reason = DetailsOf<'PERMISSION_DENIED'>['reason'];

const TEXTS: ReadonlyArray<[Reason, RegExp]> = [
  ['EACCES', /permission denied/i],
  ['EPERM', /operation not permitted/i],
  ['EROFS', /read-only file system/i],
];

const WHAT: Record<PathKind, string> = {
  warehouse: 'the DuckDB warehouse file or its directory',
  dataset: 'the Parquet dataset directory',
  lock: 'the run lock',
  'export-out': 'the export destination',
};

const FIX: Record<PathKind, string> = {
  warehouse: 'choose a --target in a directory you may write',
  dataset: 'choose a parquet: --target you may write',
  lock: 'choose a --target in a directory you may write',
  'export-out': 'choose an --out you may write',
};

/** The permission errno of `error`, or null when it is not a permission refusal. */
export function permissionReason(error: unknown): Reason | null {
  if (!(error instanceof Error)) return null;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string') return TEXTS.some(([known]) => known === code) ? (code as Reason) : null;
  return TEXTS.find(([, text]) => text.test(error.message))?.[0] ?? null;
}

export function permissionDenied(
  reason: Reason,
  pathKind: PathKind,
  operation: string,
  cause?: unknown,
  published?: boolean,
): IoError<'PERMISSION_DENIED'> {
  const remedy =
    reason === 'EROFS'
      ? `The file system is mounted read-only: remount it read-write or ${FIX[pathKind]}.`
      : `Permission denied: give the user running etl write access to ${WHAT[pathKind]}, or ${FIX[pathKind]}.`;
  return new IoError(
    'PERMISSION_DENIED',
    `Permission denied writing ${WHAT[pathKind]} (${reason})`,
    { pathKind, operation, reason, remedy, ...(published === undefined ? {} : { published }) },
    { cause },
  );
}

/** `error` as PERMISSION_DENIED when it is a permission refusal; otherwise unchanged. */
export function asPermissionDenied(error: unknown, pathKind: PathKind, operation: string): unknown {
  const reason = permissionReason(error);
  return reason === null ? error : permissionDenied(reason, pathKind, operation, error);
}
