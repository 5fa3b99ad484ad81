/**
 * The single-writer run lock: `<warehouse>.lock`, created with O_EXCL (0600) and holding the owner
 * pid and its process start time. A lock whose owner is dead (or whose pid now names a different
 * process) is stale and taken over; a live owner makes the new run fail at once with ETL_LOCKED.
 */
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { RetryableIoError } from '../errors.js';
import { outputModes } from '../output-permissions.js';

interface LockOwner {
  v: 1;
  pid: number;
  /** Process start time in clock ticks since boot (Linux), or null where unknown. */
  startTicks: number | null;
  startedAtMs: number;
}

// A lock file without a readable owner may be one another run is writing right now.
const HALF_WRITTEN_GRACE_MS = 10_000;

export interface RunLock {
  release(): void;
}

/** Start time of a process, from /proc; null when the platform has no /proc or it is gone. */
export function processStartTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesized command name; starttime is field 22 overall.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

function isAlive(owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  // A reused pid is a different process: its start time differs from the recorded one.
  const ticks = processStartTicks(owner.pid);
  return owner.startTicks === null || ticks === null || ticks === owner.startTicks;
}

function readOwner(path: string): LockOwner | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return parsed.v === 1 && typeof parsed.pid === 'number' ? (parsed as LockOwner) : null;
  } catch {
    return null;
  }
}

function tryCreate(path: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(owner)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

export function lockPathFor(warehousePath: string): string {
  return `${warehousePath}.lock`;
}

export function acquireRunLock(warehousePath: string): RunLock {
  const path = lockPathFor(warehousePath);
  // The warehouse's own directory may be created here, first: it gets the output permissions.
  mkdirSync(dirname(path), { recursive: true, mode: outputModes().dir });
  const owner: LockOwner = {
    v: 1,
    pid: process.pid,
    startTicks: processStartTicks(process.pid),
    startedAtMs: Date.now(),
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(path, owner)) {
      return {
        release: () => {
          if (readOwner(path)?.pid === process.pid) unlinkSync(path);
        },
      };
    }
    const holder = readOwner(path);
    const fresh = holder === null && Date.now() - statSync(path).mtimeMs < HALF_WRITTEN_GRACE_MS;
    if ((holder !== null && isAlive(holder)) || fresh) {
      throw new RetryableIoError(
        'ETL_LOCKED',
        `Another etl run (pid ${holder?.pid ?? 'unknown'}) holds the warehouse`,
        {
          holderPid: holder?.pid ?? null,
          holderStartedAtMs: holder?.startedAtMs ?? null,
          remedy: 'Wait for the other run to finish, then retry.',
        },
      );
    }
    // Stale (dead owner) or unreadable residue of a crash: remove it and try once more.
    unlinkSync(path);
  }
  throw new RetryableIoError('ETL_LOCKED', 'The warehouse lock is contended; retry', { holderPid: null });
}

/** The live holder of the lock, if any (for `etl status`). */
export function lockHolder(warehousePath: string): number | null {
  const holder = readOwner(lockPathFor(warehousePath));
  return holder !== null && isAlive(holder) ? holder.pid : null;
}
