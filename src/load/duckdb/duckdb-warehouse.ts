/**
 * Opening the DuckDB warehouse file: owner-only permissions, schema creation, a version stamp that
 * fails closed when newer than this build, and lock contention reported as a retryable error.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { LEDGER_TABLES } from '../../../schemas/ledger-tables.js';
import { PRICE_TABLES } from '../../../schemas/price-tables.js';
import type { ColumnSpec, TableDefinition } from '../../../schemas/table-definition.js';
import { createTableSql } from '../../../schemas/table-definition.js';
import { ROW_TABLES } from '../../../schemas/tables.js';
import { IoError, NotFoundError, RetryableIoError } from '../../shared/errors.js';
import { outputModes } from '../../shared/output-permissions.js';
import { permissionDenied, permissionReason } from '../../shared/permission-denied.js';
import { PrivateTempDir } from '../../shared/temp/private-temp-dir.js';
import { ANALYST_VIEWS, createViewSql } from '../views/analyst-views.js';
import { DuckDBInstance } from './duckdb-api.js';
import { SANDBOX_INSTANCE_OPTIONS } from './query-sandbox.js';
import {
  runInstanceOptions,
  TRANSIENT_COLUMN_BYTES,
  WRITER_MEMORY_BYTES,
  WRITER_ROW_GROUP_ROWS,
} from './run-memory.js';
import { sqlString } from './sql-string.js';
import { storageVersionOption } from './storage-version.js';
import { connectInUtc } from './utc-connection.js';
import { fitMemoryLimit, largestStoredValueBytes } from './value-memory.js';
import {
  assertNotNewer,
  migrate,
  storedMeta,
  versionOf,
  WAREHOUSE_SCHEMA_VERSION,
  writeMetaValue,
} from './warehouse-version.js';
import { assertWholeFile, restoreTrimmedTail } from './whole-file-check.js';

/** `etl_meta` key of the largest value (UTF-8 bytes) any run wrote: the writer's pool must fit it. */
const LARGEST_VALUE_KEY = 'largest_value_bytes';

/** `etl_meta` key of the digest of the DDL that last ran on the warehouse. */
const SCHEMA_DIGEST_KEY = 'schema_digest';

export interface OpenedWarehouse {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
  close(): void;
}

export interface DuckDbWarehouse extends OpenedWarehouse {
  /** The `etl_meta` rows as they were when the warehouse was opened (null for an older file without). */
  meta: ReadonlyMap<string, string> | null;
  /** The next close leaves the WAL for the next open to replay, if it is small; whether it will. */
  keepSmallWal(): Promise<boolean>;
  /**
   * Makes the writer's pool fit a value of this many bytes (value-memory.ts), before it is written;
   * inside the writing transaction, so the warehouse's recorded largest value rises with its rows.
   */
  fitValue(bytes: number): Promise<void>;
  /**
   * Makes the writer's pool fit a transaction deleting and appending this many rows; never lowers
   * it, and never recorded, so the next run starts from the base and the largest value again.
   */
  fitRows(rows: number): Promise<void>;
  /**
   * While the run has written fewer than a row group's rows (`runRows`), adds room for one transient
   * block pair per column of every table (run-memory.ts); never lowers the pool.
   */
  fitSmallRun(runRows: number): Promise<void>;
}

/**
 * A no-op `--since-last` writes only its run record and ledger stamps (about 1 KB), which cost
 * less to replay at the next open than a checkpoint costs now; but the replay grows with every
 * record kept. Past this size (about 16 runs) the close checkpoints, which bounds the open's replay.
 */
export const KEPT_WAL_MAX_BYTES = 16 * 1024;

function walBytes(path: string): number {
  try {
    return statSync(`${path}.wal`).size;
  } catch {
    return 0;
  }
}

function mapOpenError(error: unknown, mode: 'write' | 'read'): Error {
  const refused = mode === 'write' ? permissionReason(error) : null;
  if (refused !== null) return permissionDenied(refused, 'warehouse', 'open', error);
  const message = error instanceof Error ? error.message : String(error);
  if (/lock/i.test(message)) {
    const pid = /PID (\d+)/.exec(message)?.[1];
    return new RetryableIoError(
      'WAREHOUSE_BUSY',
      'The warehouse file is held by another process; retry when it is released',
      {
        holderPid: pid === undefined ? null : Number(pid),
        remedy: 'Close the other program holding the DuckDB file (e.g. a SQL GUI) or wait, then retry.',
      },
    );
  }
  return new IoError('WAREHOUSE_UNREADABLE', 'The warehouse file could not be opened', {
    reason: 'open-failed',
  });
}

async function openReadOnly(
  path: string,
): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  const instance = await DuckDBInstance.create(path, {
    ...SANDBOX_INSTANCE_OPTIONS,
    access_mode: 'READ_ONLY',
  });
  return { instance, connection: await connectInUtc(instance) };
}

/**
 * A writer attaches the file instead of opening it as the instance's database: the row group size
 * (run-memory.ts) and a new file's storage format (storage-version.ts) are options of ATTACH only.
 * `USE` makes it the default catalog, so every statement and appender names its tables as before.
 */
async function openForWriting(
  path: string,
  spillDir: string,
): Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> {
  const creating = !existsSync(path);
  const instance = await DuckDBInstance.create(':memory:', runInstanceOptions(spillDir));
  const connection = await connectInUtc(instance);
  try {
    await connection.run(
      `ATTACH ${sqlString(path)} AS warehouse (ROW_GROUP_SIZE ${WRITER_ROW_GROUP_ROWS}${storageVersionOption(creating)})`,
    );
    await connection.run('USE warehouse');
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  return { instance, connection };
}

export async function openWarehouse(path: string, mode: 'write' | 'read'): Promise<DuckDbWarehouse> {
  if (mode === 'read' && !existsSync(path)) {
    throw new NotFoundError(
      'WAREHOUSE_NOT_FOUND',
      'No warehouse exists at the target; run `etl run` first',
      {},
    );
  }
  assertWholeFile(path);
  if (mode === 'write') mkdirSync(dirname(path), { recursive: true, mode: outputModes().dir });
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  // A writer's bounded buffer pool may spill; its spill files live in a private dir removed at close.
  const spill = mode === 'write' ? PrivateTempDir.create() : null;
  // The output umask makes DuckDB create the file with the output permissions from the first byte.
  const previousUmask = process.umask(outputModes().umask);
  try {
    ({ instance, connection } =
      spill === null ? await openReadOnly(path) : await openForWriting(path, spill.path));
  } catch (error) {
    spill?.dispose();
    throw mapOpenError(error, mode);
  } finally {
    process.umask(previousUmask);
  }
  let fitted = 0;
  let fittedRows = 0;
  let base = WRITER_MEMORY_BYTES;
  const opened: DuckDbWarehouse = {
    instance,
    connection,
    meta: null,
    fitValue: async (bytes) => {
      if (bytes <= fitted) return;
      await fitMemoryLimit(connection, base, bytes, fittedRows);
      await writeMetaValue(connection, LARGEST_VALUE_KEY, String(bytes));
      fitted = bytes;
    },
    fitRows: async (rows) => {
      if (rows <= fittedRows) return;
      await fitMemoryLimit(connection, base, fitted, rows);
      fittedRows = rows;
    },
    fitSmallRun: async (runRows) => {
      if (runRows >= WRITER_ROW_GROUP_ROWS || base > WRITER_MEMORY_BYTES) return;
      base = WRITER_MEMORY_BYTES + TRANSIENT_COLUMN_BYTES * tableColumns();
      await fitMemoryLimit(connection, base, fitted, fittedRows);
    },
    keepSmallWal: async () => {
      if (walBytes(path) >= KEPT_WAL_MAX_BYTES) return false;
      await connection.run('PRAGMA disable_checkpoint_on_shutdown');
      return true;
    },
    close: () => {
      connection.closeSync();
      instance.closeSync();
      spill?.dispose();
      if (mode === 'write') restoreTrimmedTail(path);
    },
  };
  try {
    if (mode === 'write') {
      chmodSync(path, outputModes().file);
      opened.meta = await ensureSchema(connection);
      // Checkpoints rewrite stored row groups, so the pool fits the largest value already stored too.
      let recorded = recordedLargestValue(opened.meta);
      if (recorded === null) {
        // Not recorded yet (a new or older warehouse): its statistics, once (seconds on GBs).
        recorded = await largestStoredValueBytes(connection);
        await connection.run('BEGIN TRANSACTION');
        await writeMetaValue(connection, LARGEST_VALUE_KEY, String(recorded));
        await connection.run('COMMIT');
      }
      await fitMemoryLimit(connection, WRITER_MEMORY_BYTES, recorded);
      fitted = recorded;
    } else {
      opened.meta = await storedMeta(connection);
      assertNotNewer(versionOf(opened.meta));
    }
  } catch (error) {
    opened.close();
    throw error;
  }
  return opened;
}

/** The largest stored value a writer recorded in `etl_meta`, or null when absent or not a byte count. */
export function recordedLargestValue(meta: ReadonlyMap<string, string> | null): number | null {
  const recorded = Number(meta?.get(LARGEST_VALUE_KEY));
  return Number.isSafeInteger(recorded) && recorded >= 0 ? recorded : null;
}

/** Columns of every table this build writes, `etl_meta` included. */
function tableColumns(): number {
  return 2 + writtenTables().reduce((n, table) => n + Object.keys(table.columns).length, 0);
}

function writtenTables(): TableDefinition<Record<string, ColumnSpec>>[] {
  return [...ROW_TABLES, ...LEDGER_TABLES, ...PRICE_TABLES] as unknown as TableDefinition<
    Record<string, ColumnSpec>
  >[];
}

/** This build's table DDL in order: `etl_meta`, then the tables (CREATE IF NOT EXISTS). */
function tableStatements(): string[] {
  return [
    'CREATE TABLE IF NOT EXISTS etl_meta (key VARCHAR NOT NULL, value VARCHAR NOT NULL)',
    ...writtenTables().map(createTableSql),
  ];
}

/** Creates or migrates the schema; returns the `etl_meta` rows read before. */
async function ensureSchema(connection: DuckDBConnection): Promise<Map<string, string> | null> {
  const meta = await storedMeta(connection);
  const version = versionOf(meta);
  assertNotNewer(version);
  const tables = tableStatements();
  const views = ANALYST_VIEWS.map(createViewSql);
  const digest = createHash('sha256')
    .update([...tables, ...views].join(';\n'))
    .digest('hex');
  // A warehouse whose DDL is this build's is left untouched: no catalog writes, nothing to checkpoint.
  if (version === WAREHOUSE_SCHEMA_VERSION && meta?.get(SCHEMA_DIGEST_KEY) === digest) return meta;
  await connection.run('BEGIN TRANSACTION');
  try {
    // Existing tables keep their shape (CREATE IF NOT EXISTS); `migrate` adds what older versions lack.
    for (const sql of tables) await connection.run(sql);
    if (version === null) {
      await connection.run("INSERT INTO etl_meta VALUES ('schema_version', $1)", [
        String(WAREHOUSE_SCHEMA_VERSION),
      ]);
    } else if (version < WAREHOUSE_SCHEMA_VERSION) {
      await migrate(connection, version);
    }
    // Views bind their column types when created, so they follow the migrated tables.
    for (const sql of views) await connection.run(sql);
    await writeMetaValue(connection, SCHEMA_DIGEST_KEY, digest);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK');
    throw error;
  }
  // A column retyped in the WAL would be re-cast at replay, in the replaying machine's zone.
  if (version !== null && version < WAREHOUSE_SCHEMA_VERSION) await connection.run('CHECKPOINT');
  return meta;
}
