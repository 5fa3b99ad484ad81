/**
 * The warehouse schema/ledger version: read it, fail closed when newer than this build, and
 * migrate older warehouses explicitly and idempotently (each step can be re-run safely).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { consumersTable, sessionChangesTable, sessionSourcesTable } from '../../../schemas/ledger-tables.js';
import { modelPricesTable } from '../../../schemas/price-tables.js';
import { createTableSql } from '../../../schemas/table-definition.js';
import { fileEditsTable, rowProvenanceTable, usageTable } from '../../../schemas/tables.js';
import { IntegrityError, UsageError } from '../../shared/errors.js';
import type { AnyTable } from '../export/export-tables.js';
import { backfillFileEdits } from './backfill-file-edits.js';
import { recomputeViewDigests } from './recompute-digests.js';

export const WAREHOUSE_SCHEMA_VERSION = 6;

/** Marks every ledger source for one more read, even by `--since-last`: stored identities converge. */
export const REREAD_EVERY_SOURCE_SQL = "UPDATE etl_sources SET options_digest = 'identity-v3-pending'";

/** The `etl_meta` key/value rows, or null when the warehouse has no `etl_meta` table yet. */
export async function storedMeta(connection: DuckDBConnection): Promise<Map<string, string> | null> {
  // `duckdb_tables()` filtered to the current catalog: `information_schema` builds rows for every
  // attached catalog's tables and views first, several times the cost at each open.
  const exists = await connection.runAndReadAll(
    "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'etl_meta'",
  );
  if (exists.currentRowCount === 0) return null;
  const rows = await connection.runAndReadAll('SELECT key, value FROM etl_meta');
  return new Map(rows.getRowObjects().map((r) => [String(r.key), String(r.value)]));
}

/** Sets one `etl_meta` key (the table has no key constraint, so replace by delete + insert). */
export async function writeMetaValue(
  connection: DuckDBConnection,
  key: string,
  value: string,
): Promise<void> {
  await connection.run('DELETE FROM etl_meta WHERE key = $1', [key]);
  await connection.run('INSERT INTO etl_meta VALUES ($1, $2)', [key, value]);
}

export function versionOf(meta: ReadonlyMap<string, string> | null): number | null {
  const value = meta?.get('schema_version');
  return value === undefined ? null : Number(value);
}

export async function storedVersion(connection: DuckDBConnection): Promise<number | null> {
  return versionOf(await storedMeta(connection));
}

export function assertNotNewer(version: number | null): void {
  if (version !== null && version > WAREHOUSE_SCHEMA_VERSION) {
    throw new IntegrityError(
      'WAREHOUSE_VERSION_NEWER',
      'The warehouse was written by a newer cursor-etl; refusing to touch it',
      {
        warehouseVersion: version,
        supportedVersion: WAREHOUSE_SCHEMA_VERSION,
        remedy: 'Upgrade cursor-etl.',
      },
    );
  }
}

/** The `etl_meta` key a Parquet state's read connection sets when an older build wrote its rows. */
export const ROWS_OF_OLDER_BUILD_KEY = 'rows_of_older_build';

/** Read-only commands that rely on the current tables (status, verify) cannot migrate; say how to. */
export async function assertCurrentSchema(connection: DuckDBConnection): Promise<void> {
  const meta = await storedMeta(connection);
  const version = versionOf(meta);
  if (
    (version !== null && version < WAREHOUSE_SCHEMA_VERSION) ||
    meta?.get(ROWS_OF_OLDER_BUILD_KEY) === 'true'
  ) {
    throw new UsageError(
      'WAREHOUSE_MIGRATION_REQUIRED',
      "The warehouse holds an older build's schema or rows",
      {
        warehouseVersion: version ?? WAREHOUSE_SCHEMA_VERSION,
        supportedVersion: WAREHOUSE_SCHEMA_VERSION,
        remedy:
          'Run `etl run` once with this version (it migrates a DuckDB warehouse in place, and publishes a Parquet state in its columns), then retry. ' +
          'Stored identities converge in that run: sessions with changed tool IDs or a re-dashed compact Store session ID are replaced once, nothing else is rewritten.',
      },
    );
  }
}

/** Retypes a UTC wall-clock TIMESTAMP column as TIMESTAMPTZ; a no-op on one already converted. */
function instantColumn(table: string, column: string): string {
  return `ALTER TABLE ${table} ALTER COLUMN ${column} SET DATA TYPE TIMESTAMPTZ USING timezone('UTC', ${column}::TIMESTAMP)`;
}

/** The version whose step adds the subagent link columns (one constant, so the step can be renumbered). */
const SUBAGENT_LINKS_FROM = 3;

/** The subagent link columns version 4 appended to `sessions`, in their table order. */
const SUBAGENT_LINK_COLUMNS = ['root_session_id', 'spawn_tool_call_id', 'subagent_type'] as const;

/**
 * Subagent link columns at the end of `sessions` (rows are appended by position). Every source is
 * read once more, so archived children get their links. A version 3 warehouse of the build before
 * Store tool identity lacks `native_call_id` and `row_provenance`: added here too.
 */
const SUBAGENT_LINKS_STEP: readonly string[] = [
  ...SUBAGENT_LINK_COLUMNS.map((column) => `ALTER TABLE sessions ADD COLUMN IF NOT EXISTS ${column} VARCHAR`),
  'ALTER TABLE tool_calls ADD COLUMN IF NOT EXISTS native_call_id VARCHAR',
  createTableSql(rowProvenanceTable as unknown as AnyTable),
  REREAD_EVERY_SOURCE_SQL,
];

// Team archive (origins, etl merge): provenance columns appended at the end of their tables, rows
// being appended by position. NULL on older rows: origin stays out of identities and digests.
const ORIGIN_STEP: readonly string[] = [
  'ALTER TABLE sessions ADD COLUMN IF NOT EXISTS origin VARCHAR',
  'ALTER TABLE source_instances ADD COLUMN IF NOT EXISTS origin VARCHAR',
  'ALTER TABLE etl_runs ADD COLUMN IF NOT EXISTS origin VARCHAR',
];

/** Steps from version N to N+1, run inside the schema transaction after the CREATE IF NOT EXISTS. */
const MIGRATIONS: Record<number, readonly string[]> = {
  // v1 → v2: run counters for absence and payload bytes, and the owner pid; ledger tables are created.
  1: [
    'ALTER TABLE etl_runs ADD COLUMN IF NOT EXISTS sessions_marked_absent INTEGER DEFAULT 0',
    'ALTER TABLE etl_runs ADD COLUMN IF NOT EXISTS payload_bytes_read BIGINT DEFAULT 0',
    'ALTER TABLE etl_runs ADD COLUMN IF NOT EXISTS owner_pid INTEGER',
  ],
  // v2 → v3: a redaction policy older builds refuse, membership content digests (NULL: re-read),
  // view digests without provenance, times as instants (stored values were UTC), native tool-call
  // IDs and `row_provenance` (filled by the next run).
  2: [
    // Rebuilt, not altered: rows are appended by column position, and an added column would come
    // after `last_seen_run`.
    'ALTER TABLE etl_session_sources RENAME TO etl_session_sources_v2',
    createTableSql(sessionSourcesTable as unknown as AnyTable),
    `INSERT INTO etl_session_sources (session_id, source_key, occurrence_ref, session_fingerprint, last_seen_run)
      SELECT session_id, source_key, occurrence_ref, session_fingerprint, last_seen_run FROM etl_session_sources_v2`,
    'DROP TABLE etl_session_sources_v2',
    ...[
      ['sessions', 'created_at'],
      ['sessions', 'updated_at'],
      ['messages', 'timestamp'],
      ['etl_runs', 'started_at'],
      ['etl_runs', 'finished_at'],
    ].map(([table, column]) => instantColumn(table!, column!)),
    'ALTER TABLE tool_calls ADD COLUMN IF NOT EXISTS native_call_id VARCHAR',
    createTableSql(rowProvenanceTable as unknown as AnyTable),
    // Store tool IDs and compact session IDs changed: every source is read once more, even by
    // `--since-last`, and sessions whose rows differ are replaced by digest.
    REREAD_EVERY_SOURCE_SQL,
  ],
  [SUBAGENT_LINKS_FROM]: SUBAGENT_LINKS_STEP,
  // v4 → v5: origins (outside the digest), usage and prices, file edits (backfilled by `migrate`), the
  // change log. Every source is read once more: sessions gaining usage rows are replaced.
  4: [
    ...ORIGIN_STEP,
    createTableSql(usageTable as unknown as AnyTable),
    createTableSql(modelPricesTable as unknown as AnyTable),
    createTableSql(fileEditsTable as unknown as AnyTable),
    createTableSql(sessionChangesTable as unknown as AnyTable),
    createTableSql(consumersTable as unknown as AnyTable),
    REREAD_EVERY_SOURCE_SQL,
  ],
  // v5 → v6: Store `lastUsedModel` usage rows and Composer `codeBlockDiff` line counts are read from
  // sources, not from stored rows: every source is read once more, even by `--since-last`.
  5: [REREAD_EVERY_SOURCE_SQL],
};

/** Steps after which the `file_edits` rows of every stored session are derived from its rows. */
const BACKFILL_FILE_EDITS_AFTER = new Set([4]);

/**
 * Steps after which every stored digest is recomputed: the digest definition changed with them, or
 * (added `sessions` columns) the session row it hashes gained members.
 */
const RECOMPUTE_DIGESTS_AFTER = new Set([2, SUBAGENT_LINKS_FROM]);

/**
 * Brings a warehouse of `from` up to the current version; returns the steps applied. Digests are
 * recomputed once after the last step: the rows are read in this build's columns.
 */
export async function migrate(connection: DuckDBConnection, from: number): Promise<number[]> {
  const applied: number[] = [];
  for (let version = from; version < WAREHOUSE_SCHEMA_VERSION; version++) {
    for (const sql of MIGRATIONS[version] ?? []) await connection.run(sql);
    if (BACKFILL_FILE_EDITS_AFTER.has(version)) await backfillFileEdits(connection);
    applied.push(version);
  }
  if (applied.some((version) => RECOMPUTE_DIGESTS_AFTER.has(version))) await recomputeViewDigests(connection);
  await connection.run("UPDATE etl_meta SET value = $1 WHERE key = 'schema_version'", [
    String(WAREHOUSE_SCHEMA_VERSION),
  ]);
  return applied;
}
