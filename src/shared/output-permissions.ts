/**
 * Permissions of what cursor-etl creates for users (warehouse, WAL, Parquet dataset, exports):
 * owner-only (0600 / 0700), or 0640 / 0750 with `--shared-permissions`. Private temp data, Parquet
 * staging and the run lock stay owner-only whatever is asked.
 */
export type OutputPermissions = 'private' | 'shared';

export interface OutputModes {
  file: number;
  dir: number;
  /** The umask under which native writers (DuckDB) create files. */
  umask: number;
}

const MODES: Record<OutputPermissions, OutputModes> = {
  private: { file: 0o600, dir: 0o700, umask: 0o077 },
  shared: { file: 0o640, dir: 0o750, umask: 0o027 },
};

let current: OutputPermissions = 'private';

export function outputModes(): OutputModes {
  return MODES[current];
}

/** Runs one command with `permissions` for everything it creates (and the matching process umask). */
export async function withOutputPermissions<T>(
  permissions: OutputPermissions,
  work: () => Promise<T>,
): Promise<T> {
  const previous = current;
  current = permissions;
  const previousUmask = process.umask(MODES[permissions].umask);
  try {
    return await work();
  } finally {
    current = previous;
    process.umask(previousUmask);
  }
}
