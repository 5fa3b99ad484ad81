/**
 * The sandbox of every read surface (`etl query`, `status`, `verify`, `export`): DuckDB may read the
 * warehouse and the named directories only, never install or load an extension, never reach the
 * network, and nobody may change these settings afterwards (`lock_configuration`).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from './sql-string.js';

/** Instance options: extensions are never fetched or loaded on demand (parquet and json are built in). */
export const SANDBOX_INSTANCE_OPTIONS: Readonly<Record<string, string>> = {
  autoload_known_extensions: 'false',
  autoinstall_known_extensions: 'false',
  allow_community_extensions: 'false',
};

/** What a read surface may do besides reading the warehouse, fixed before the lock. */
export interface Sandbox {
  /** Directories DuckDB may read and write (an export's private staging directory). */
  writableDirectories?: readonly string[];
  /** Settings of the surface itself (`verify` bounds its memory and spills privately). */
  settings?: Readonly<Record<string, string>>;
  /** Work on the connection before the lock, e.g. fitting the memory limit to the stored values. */
  prepare?: (connection: DuckDBConnection) => Promise<void>;
}

/**
 * Applies the surface's settings, closes file and network access except below `directories` (each
 * with a trailing slash, so a sibling sharing a name prefix stays closed), then locks the
 * configuration.
 */
export async function lockDown(
  connection: DuckDBConnection,
  directories: readonly string[],
  settings: Readonly<Record<string, string>> = {},
  prepare?: (connection: DuckDBConnection) => Promise<void>,
): Promise<void> {
  for (const [name, value] of Object.entries(settings))
    await connection.run(`SET ${name} = ${sqlString(value)}`);
  await prepare?.(connection);
  if (directories.length > 0) {
    const list = directories.map((d) => sqlString(d.endsWith('/') ? d : `${d}/`)).join(', ');
    await connection.run(`SET allowed_directories = [${list}]`);
  }
  await connection.run('SET enable_external_access = false');
  await connection.run('SET lock_configuration = true');
}
