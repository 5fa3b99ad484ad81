/**
 * A consistent, read-only view of a SQLite file that never modifies it: WAL mode is read in one
 * read transaction (the writer never waits); other modes are copied to the private temp dir
 * (serialized when small, online backup when large), or with `inPlace` read in one read transaction.
 */
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fstatSync,
  openSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { IoError } from '../../shared/errors.js';
import type { PrivateTempDir } from '../../shared/temp/private-temp-dir.js';
import type { RawSource } from './raw-table-rows.js';
import { Database } from './sqlite-driver.js';
import { cachedStatement } from './statement-cache.js';
import {
  readWalIndexHeader,
  snapshotFrames,
  type WalSnapshot,
  walSnapshotOf,
} from './wal-snapshot-frames.js';

export type SnapshotMethod =
  | 'wal-read-transaction'
  | 'shared-lock-read'
  | 'serialized-copy'
  | 'online-backup'
  | 'file-copy';

/** Up to this size the image is held in memory once while written: the backup API's file creation,
 * journal and fsyncs cost ~10 ms per database, most of a run's catalog when there are many workspaces. */
const SERIALIZED_COPY_BYTES = 8 * 1024 * 1024;

export interface SqliteSnapshot {
  /** The snapshot's connection; a released copy's is reopened here on first use. */
  readonly db: BetterSqlite3.Database;
  readonly method: SnapshotMethod;
  /** Frees the connection until `db` is read again; a WAL snapshot (its pinned read) stays open. */
  release(): void;
  close(): void;
}

function unreadable(sourceKind: string, reason: string): IoError {
  return new IoError('SOURCE_UNREADABLE', `A ${sourceKind} database could not be opened`, {
    sourceKind,
    reason,
  });
}

function errorReason(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : 'open-failed';
}

/** Opens the source itself; a test passes one that fails to stand in for a failing disk. */
export type SqliteOpener = (path: string) => BetterSqlite3.Database;

const openReadOnly: SqliteOpener = (path) => {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma('query_only = ON');
  return db;
};

/** SQLite's I/O error family and the OS's EIO (WSL's `/mnt/c` under load): retried from a byte copy. */
function isIoFailure(error: unknown): boolean {
  const reason = error instanceof IoError ? error.details.reason : null;
  return typeof reason === 'string' && (reason === 'EIO' || reason.startsWith('SQLITE_IOERR'));
}

/**
 * `inPlace`: read a rollback-journal database in place rather than copy it (a run reading little of
 * it). `rawBytes: false`: `rawFileOf` will never be asked, so its stat and `-shm` reads are spared.
 */
export async function openSqliteSnapshot(
  path: string,
  temp: PrivateTempDir,
  sourceKind: string,
  open: SqliteOpener = openReadOnly,
  inPlace = false,
  rawBytes = true,
): Promise<SqliteSnapshot> {
  try {
    return await snapshotOf(path, temp, sourceKind, open, inPlace, rawBytes);
  } catch (error) {
    if (!isIoFailure(error)) throw error;
    return fileCopySnapshot(path, temp, sourceKind);
  }
}

/**
 * Copies the file and its WAL into the private temp dir and folds the WAL into the copy. A writer
 * active during the copy can leave it torn; SQLite then reports it and the source is unreadable.
 */
function fileCopySnapshot(path: string, temp: PrivateTempDir, sourceKind: string): SqliteSnapshot {
  const copyPath = temp.file('snapshot.sqlite');
  try {
    copyFileSync(path, copyPath, constants.COPYFILE_EXCL);
    chmodSync(copyPath, 0o600);
    if (existsSync(`${path}-wal`)) {
      copyFileSync(`${path}-wal`, `${copyPath}-wal`, constants.COPYFILE_EXCL);
      chmodSync(`${copyPath}-wal`, 0o600);
    }
    const copy = new Database(copyPath, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    return copySnapshot(copyPath, 'file-copy');
  } catch (error) {
    throw unreadable(sourceKind, errorReason(error));
  }
}

async function snapshotOf(
  path: string,
  temp: PrivateTempDir,
  sourceKind: string,
  open: SqliteOpener,
  inPlace: boolean,
  rawBytes: boolean,
): Promise<SqliteSnapshot> {
  let source: BetterSqlite3.Database;
  const before = rawBytes ? statSync(path, { throwIfNoEntry: false }) : undefined;
  try {
    source = open(path);
  } catch (error) {
    throw unreadable(sourceKind, errorReason(error));
  }
  try {
    const mode = String(source.pragma('journal_mode', { simple: true })).toLowerCase();
    if (mode === 'wal') return readTransaction(source, 'wal-read-transaction', path, before);
    const bytes =
      Number(source.pragma('page_count', { simple: true })) *
      Number(source.pragma('page_size', { simple: true }));
    // SQLite reads the missing pages of a cut file as zeros: a file shorter than its header says is
    // truncated, not a database with fewer rows.
    if (statSync(path).size < bytes) throw unreadable(sourceKind, 'truncated');
    if (inPlace) return readTransaction(source, 'shared-lock-read', path, before);
    const copyPath = temp.file('snapshot.sqlite');
    let method: SnapshotMethod = 'online-backup';
    if (bytes <= SERIALIZED_COPY_BYTES) {
      writeFileSync(copyPath, source.serialize(), { mode: 0o600, flag: 'wx' });
      method = 'serialized-copy';
    } else {
      // Created empty and owner-only first: the backup writes into it and keeps its 0600 mode.
      writeFileSync(copyPath, '', { mode: 0o600, flag: 'wx' });
      await source.backup(copyPath);
    }
    source.close();
    return copySnapshot(copyPath, method);
  } catch (error) {
    if (source.open) source.close();
    if (error instanceof IoError) throw error;
    throw unreadable(sourceKind, errorReason(error));
  }
}

/** What a read transaction's files must show to be its snapshot, and those files once opened. */
interface RawCandidate {
  path: string;
  before: Stats;
  wal: WalSnapshot | null;
  opened?: RawSource | null;
  /** Descriptors closed only after SQLite's connection (see `readTransaction`). */
  held: number[];
}

const rawCandidates = new WeakMap<BetterSqlite3.Database, RawCandidate>();

/**
 * The files holding `db`'s snapshot as bytes, opened on first ask and kept until the snapshot
 * closes: a rollback-journal file under its shared lock, or a WAL-mode file with the WAL frames its
 * snapshot sees (a checkpoint never overwrites what a read still sees). Undefined when unknown.
 */
export function rawFileOf(db: BetterSqlite3.Database): RawSource | undefined {
  const candidate = rawCandidates.get(db);
  if (candidate === undefined) return undefined;
  candidate.opened ??= openRaw(candidate);
  return candidate.opened ?? undefined;
}

function openFile(path: string): number | undefined {
  try {
    return openSync(path, 'r');
  } catch {
    return undefined;
  }
}

/** The file SQLite opened, opened again: the same inode as before SQLite's open, else it was replaced. */
function openRaw({ path, before, wal, held }: RawCandidate): RawSource | null {
  const fd = openFile(path);
  if (fd === undefined) return null;
  held.push(fd);
  const now = fstatSync(fd);
  if (now.ino !== before.ino || now.dev !== before.dev) return null;
  if (wal === null || wal.mxFrame === 0) return { fd };
  const walFd = openFile(`${path}-wal`);
  if (walFd === undefined) return null;
  held.push(walFd);
  const frames = snapshotFrames(walFd, wal);
  return frames === null ? null : { fd, wal: { fd: walFd, frames } };
}

/**
 * In WAL mode the snapshot is the one the wal-index headers read before and after the read began
 * name when they agree, else the file alone when the WAL was empty once the read began.
 */
function rawCandidate(
  path: string,
  before: Stats | undefined,
  method: SnapshotMethod,
  headers: [Buffer | null, Buffer | null],
  held: number[],
): RawCandidate | undefined {
  if (before === undefined) return undefined;
  if (method !== 'wal-read-transaction') return { path, before, wal: null, held };
  const wal = walSnapshotOf(...headers);
  if (wal !== null) return { path, before, wal, held };
  const walEmpty = (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0) === 0;
  return walEmpty ? { path, before, wal: null, held } : undefined;
}

/**
 * One read transaction on the source for the snapshot's life: in WAL mode it pins one WAL snapshot
 * and blocks no writer; in a rollback-journal mode its shared lock keeps the file as read, so a
 * writer's commit waits (under its busy timeout) until `close`.
 */
function readTransaction(
  source: BetterSqlite3.Database,
  method: SnapshotMethod,
  path: string,
  before: Stats | undefined,
): SqliteSnapshot {
  // Closing any descriptor of a file drops every POSIX lock this process holds on it, SQLite's
  // shared and WAL read locks included: files opened beside SQLite stay open until it has closed.
  const held: number[] = [];
  const closeHeld = (): void => {
    for (const fd of held.splice(0)) closeSync(fd);
  };
  try {
    // Without the stat taken before the open no raw candidate can be named: its headers are not read.
    const wal = method === 'wal-read-transaction' && before !== undefined;
    const shm = wal ? openFile(`${path}-shm`) : undefined;
    if (shm !== undefined) held.push(shm);
    const header = (): Buffer | null => (shm === undefined ? null : readWalIndexHeader(shm));
    const headerBefore = header();
    source.exec('BEGIN');
    // Touching the schema starts the read: the snapshot (or shared lock) is held from here on.
    source.prepare('SELECT count(*) FROM sqlite_master').get();
    const candidate = rawCandidate(path, before, method, [headerBefore, header()], held);
    if (candidate !== undefined) rawCandidates.set(source, candidate);
  } catch (error) {
    closeHeld();
    throw error;
  }
  return {
    db: source,
    method,
    release: () => undefined,
    close: () => {
      rawCandidates.delete(source);
      try {
        // Ending a read can only report what a read already met (a corrupt page): closing ends it too.
        if (source.inTransaction) source.exec('ROLLBACK');
      } catch {
      } finally {
        source.close();
        closeHeld();
      }
    },
  };
}

/** The private copy is immutable, so closing and reopening its connection reads the same snapshot. */
function copySnapshot(copyPath: string, method: SnapshotMethod): SqliteSnapshot {
  const open = (): BetterSqlite3.Database => new Database(copyPath, { readonly: true, fileMustExist: true });
  let copy: BetterSqlite3.Database | null = open();
  const release = (): void => {
    copy?.close();
    copy = null;
  };
  return {
    get db() {
      copy ??= open();
      return copy;
    },
    method,
    release,
    close: release,
  };
}

/** Whether SQLite itself refused a read (a corrupt page, a wrong schema). */
export function isSqliteError(error: unknown): boolean {
  return error instanceof Database.SqliteError;
}

/** A SQLite failure while reading (corrupt page, wrong schema) as the typed fatal source error. */
export function asSourceError(error: unknown, sourceKind: string): unknown {
  return isSqliteError(error) ? unreadable(sourceKind, errorReason(error)) : error;
}

export function hasTable(db: BetterSqlite3.Database, table: string): boolean {
  return (
    cachedStatement(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !==
    undefined
  );
}

/** A database without a single table (an empty or cut file) as unreadable. */
export function requireTables(snapshot: SqliteSnapshot, sourceKind: string): SqliteSnapshot {
  const any = cachedStatement(snapshot.db, "SELECT 1 FROM sqlite_master WHERE type = 'table' LIMIT 1").get();
  if (any === undefined) throw unreadable(sourceKind, 'no-tables');
  return snapshot;
}

/** Maps an unopenable database to null (the caller degrades); any other error propagates. */
export function unlessUnreadable(error: unknown): null {
  if (error instanceof IoError && error.code === 'SOURCE_UNREADABLE') return null;
  throw error;
}
