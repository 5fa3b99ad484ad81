/**
 * The single-writer run lock: `<warehouse>.lock`, created with O_EXCL (0600) and holding the owner
 * pid and its process start time. A lock whose owner is dead (or whose pid now names a different
 * process) is stale and taken over; a live owner makes the new run fail at once with ETL_LOCKED.
 */
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { RetryableIoError } from '../errors.js';
import { outputModes } from '../output-permissions.js';
import { asPermissionDenied } from '../permission-denied.js';
import { currentHost, judgeProcess, processStartTime } from './process-identity.js';

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

/**
 * A lock is taken over only when its owner is proven dead (the pid is gone or names a process with
 * another start time); an owner whose start time is unknown still holds it.
 */
function isHeld(owner: LockOwner): boolean {
  const startTime = owner.startTicks === null ? null : String(owner.startTicks);
  return judgeProcess({ pid: owner.pid, startTime }, currentHost()) !== 'dead';
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

function ticksOf(startTime: string | null): number | null {
  return startTime === null ? null : Number(startTime);
}

export function lockPathFor(warehousePath: string): string {
  return `${warehousePath}.lock`;
}

export function acquireRunLock(warehousePath: string): RunLock {
  try {
    return takeLock(lockPathFor(warehousePath));
  } catch (error) {
    throw asPermissionDenied(error, 'lock', 'lock');
  }
}

function takeLock(path: string): RunLock {
  // The warehouse's own directory may be created here, first: it gets the output permissions.
  mkdirSync(dirname(path), { recursive: true, mode: outputModes().dir });
  const owner: LockOwner = {
    v: 1,
    pid: process.pid,
    startTicks: ticksOf(processStartTime(process.pid)),
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
    if ((holder !== null && isHeld(holder)) || fresh) {
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
  return holder !== null && isHeld(holder) ? holder.pid : null;
}
