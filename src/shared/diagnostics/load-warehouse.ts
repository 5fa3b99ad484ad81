/** Codes of the load targets: the warehouse, Parquet datasets, backups, exports and queries. */
import { type CatalogueEntry, none, type ZodApi } from './catalogue-entry.js';

const warehouseVersions = (z: ZodApi) =>
  z.object({ warehouseVersion: z.number(), supportedVersion: z.number(), remedy: z.string() });

export const WAREHOUSE_CODES = {
  BACKUP_ARCHIVE_INVALID: {
    severity: [],
    exit: 'io',
    meaning: 'A backup archive is not a valid, safe zip (unreadable, unsafe names, encryption, conflicts).',
    remedy: 'Recreate the backup; an archive that breaks the zip rules is never read in part.',
    details: (z) =>
      z.object({
        reason: z.string(),
        nameProblem: z.string().optional(),
        errno: z.string().optional(),
        method: z.number().optional(),
      }),
  },
  BACKUP_CLOSED_SOURCE: {
    severity: [],
    exit: 'general',
    meaning: 'Internal: a backup database omitted by the workspace scope was asked to hydrate.',
    remedy: 'Report the bug with the command line (no data is needed).',
    details: none,
  },
  BACKUP_ENTRY_INTEGRITY_MISMATCH: {
    severity: ['warning'],
    exit: null,
    meaning: 'An archived file does not match its manifest size or checksum and was skipped.',
    remedy: 'Recreate the backup; the intact entries of this one were still read.',
    details: (z) => z.object({ entryType: z.string(), problem: z.string(), declaredBytes: z.number() }),
  },
  BACKUP_GLOBAL_OMITTED_BY_SCOPE: {
    severity: ['info'],
    exit: null,
    meaning: 'Under --workspace the archived global database was not opened, so its views are partial.',
    remedy: 'Omit --workspace to read the whole archive.',
    details: none,
  },
  BACKUP_MANIFEST_INVALID: {
    severity: [],
    exit: 'io',
    meaning: 'The backup manifest is missing or breaks a manifest v1 / inventory rule.',
    remedy: 'Recreate the backup with a cursor-history version that writes manifest v1.',
    details: (z) => z.object({ reason: z.string() }),
  },
  BACKUP_NOT_FOUND: {
    severity: [],
    exit: 'notFound',
    meaning: 'A backup archive given to the run does not exist.',
    remedy: 'Check the --backup path.',
    details: none,
  },
  BACKUP_SOURCE_UNKNOWN: {
    severity: [],
    exit: 'general',
    meaning: 'Internal: a backup source key has no owning archive.',
    remedy: 'Report the bug with the command line (no data is needed).',
    details: none,
  },
  BACKUP_WORKSPACE_SCOPE_METADATA_REQUIRED: {
    severity: [],
    exit: 'usage',
    meaning: 'A legacy backup with several workspaces and no inventory cannot be read under --workspace.',
    remedy: 'Recreate the backup with cursor-history 0.18.0 or later, or omit --workspace.',
    details: (z) => z.object({ workspaceDatabases: z.number(), remedy: z.string() }),
  },
  DATASET_FILE_DAMAGED: {
    severity: [],
    exit: 'integrity',
    meaning:
      'A data file of the published Parquet state is missing or differs from the size and sha256 its manifest records.',
    remedy:
      'Run etl run: it rebuilds damaged partitions from the sources; sessions they no longer hold need a backup.',
    details: (z) =>
      z.object({
        filesChecked: z.number(),
        damaged: z.array(
          z.object({
            table: z.string(),
            partition: z.string().nullable(),
            damage: z.enum(['missing', 'size', 'sha256']),
          }),
        ),
        remedy: z.string(),
      }),
  },
  DATASET_FILE_SET_ASIDE: {
    severity: ['warning'],
    exit: null,
    meaning:
      'A damaged data file was left out of the new Parquet state; its partition was rebuilt, started empty or left out.',
    remedy:
      'None for sessions the sources still hold; details.sessionsNotInSources sessions need a backup of the dataset.',
    details: (z) =>
      z.object({
        table: z.string(),
        partition: z.string().nullable(),
        damage: z.enum(['missing', 'size', 'sha256']),
        action: z.enum(['rebuilt-from-sources', 'ledger-restarted', 'left-out']),
        sessionsNotInSources: z.number().nullable().optional(),
      }),
  },
  DATASET_LINKS_UNAVAILABLE: {
    severity: ['info'],
    exit: null,
    meaning:
      "The dataset's storage refused a hard link: this run copied and flushed the unchanged files instead of sharing them.",
    remedy:
      'None needed; keep the dataset on a file system with hard links to share unchanged files (docs/parquet.md).',
    details: (z) => z.object({ errorCode: z.enum(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK']) }),
  },
  DATASET_MANIFEST_INVALID: {
    severity: [],
    exit: 'integrity',
    meaning: 'The published Parquet dataset manifest is unreadable or of an unknown format.',
    remedy: 'Restore the dataset directory from a backup, or rebuild it with etl run into a new target.',
    details: (z) => z.object({ reason: z.string() }),
  },
  EXPORT_OUT_EXISTS: {
    severity: [],
    exit: 'usage',
    meaning:
      '--out already holds a previous export or another file, which an export never replaces silently.',
    remedy: 'Choose a new --out, or pass --overwrite to replace the previous export.',
    details: (z) =>
      z.object({ found: z.enum(['file', 'directory', 'non-empty-directory']), remedy: z.string() }),
  },
  EXPORT_QUERY_FAILED: {
    severity: [],
    exit: 'usage',
    meaning: 'Exporting a table failed.',
    remedy: 'Check the export options and the free space of the destination.',
    details: (z) => z.object({ table: z.string() }),
  },
  EXPORT_TABLE_UNKNOWN: {
    severity: [],
    exit: 'usage',
    meaning: '--tables names a table that cannot be exported.',
    remedy: 'Use one of the tables listed in details.known.',
    details: (z) => z.object({ table: z.string(), known: z.array(z.string()) }),
  },
  EXPORT_WHERE_INVALID: {
    severity: [],
    exit: 'usage',
    meaning: "--where is not one boolean expression over the exported table's columns.",
    remedy:
      'Give one expression such as "updated_at >= \'2025-01-01\'"; statements, subqueries and other tables are refused.',
    details: (z) =>
      z.object({
        reason: z.enum([
          'syntax',
          'semicolon',
          'not-one-expression',
          'subquery',
          'star',
          'parameter',
          'other-table',
          'unknown-column',
        ]),
        table: z.string().optional(),
      }),
  },
  EXPORT_WRITE_FAILED: {
    severity: [],
    exit: 'io',
    meaning:
      'Writing the export failed (disk full, I/O error, a directory in the way); nothing was published.',
    remedy: 'Free space or fix the destination, then export again.',
    details: (z) => z.object({ reason: z.string(), remedy: z.string() }),
  },
  QUERY_FAILED: {
    severity: [],
    exit: 'usage',
    meaning: 'The SQL given to etl query failed, or is not exactly one read statement.',
    remedy: 'Give one SELECT or EXPLAIN over the warehouse: files, extensions and the network are closed.',
    details: (z) =>
      z.object({
        reason: z.enum(['not-one-statement', 'not-a-read-statement', 'outside-warehouse', 'failed']),
      }),
  },
  TARGET_INVALID: {
    severity: [],
    exit: 'usage',
    meaning: '--target names an unknown target kind.',
    remedy: 'Use duckdb:PATH or parquet:DIR.',
    details: (z) => z.object({ received: z.string() }),
  },
  WAREHOUSE_BUSY: {
    severity: [],
    exit: 'io',
    meaning: 'Another program holds the DuckDB file (retryable).',
    remedy: 'Close the other program holding the DuckDB file (e.g. a SQL GUI) or wait, then retry.',
    details: (z) => z.object({ holderPid: z.number().nullable(), remedy: z.string() }),
  },
  WAREHOUSE_INTEGRITY_FAILED: {
    severity: [],
    exit: 'integrity',
    meaning: 'etl verify found rows that contradict their stored digests or keys.',
    remedy: 'Rebuild the warehouse from the Cursor data with etl run into a new target.',
    details: (z) => z.object({ sessionsChecked: z.number(), problems: z.array(z.unknown()) }),
  },
  WAREHOUSE_MIGRATION_REQUIRED: {
    severity: [],
    exit: 'usage',
    meaning:
      'A read-only command met a warehouse of an older schema version, or a Parquet state an older build wrote.',
    remedy:
      'Run etl run once with this version: it migrates in place and replaces once the sessions whose IDs changed.',
    details: warehouseVersions,
  },
  WAREHOUSE_NOT_FOUND: {
    severity: [],
    exit: 'notFound',
    meaning: 'No warehouse (or published Parquet dataset) exists at the target.',
    remedy: 'Run etl run first, or check --target.',
    details: none,
  },
  WAREHOUSE_TRUNCATED: {
    severity: [],
    exit: 'integrity',
    meaning:
      'The DuckDB warehouse file is shorter than its header declares; it was neither read nor written.',
    remedy: 'Restore the file from a complete copy, or rebuild the archive with etl run into a new target.',
    details: (z) => z.object({ expectedBytes: z.number(), actualBytes: z.number() }),
  },
  WAREHOUSE_UNREADABLE: {
    severity: [],
    exit: 'io',
    meaning: 'The warehouse file could not be opened.',
    remedy: 'Check that --target names a DuckDB file this user may read and write.',
    details: (z) => z.object({ reason: z.string() }),
  },
  WAREHOUSE_VERSION_NEWER: {
    severity: [],
    exit: 'integrity',
    meaning: 'The warehouse was written by a newer cursor-etl; nothing was touched.',
    remedy: 'Upgrade cursor-etl.',
    details: warehouseVersions,
  },
  WAREHOUSE_WRITE_FAILED: {
    severity: [],
    exit: 'io',
    meaning: 'Writing the warehouse failed (disk full, permissions, I/O); committed sessions are intact.',
    remedy: 'Free space or fix the storage, then run again: the next run converges.',
    details: (z) =>
      z.object({
        target: z.enum(['duckdb', 'parquet']),
        operation: z.string(),
        reason: z.string(),
        published: z.boolean().optional(),
        remedy: z.string(),
      }),
  },
} as const satisfies Record<string, CatalogueEntry>;
