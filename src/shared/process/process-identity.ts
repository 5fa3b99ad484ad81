/**
 * Who a process is, and whether a recorded process is still the one running: a pid means the same
 * process only while its start time (Linux `/proc/<pid>/stat`) is unchanged. The run lock and the
 * temp owner marker both record a pid with its start time and judge it here, by one rule.
 */
import { readFileSync, readlinkSync } from 'node:fs';

/** A process as recorded by its owner: the pid and its start time in clock ticks since boot. */
export interface ProcessRecord {
  pid: number;
  startTime: string | null;
}

/** What this host can tell about processes; injectable so the rule is testable without real pids. */
export interface HostIdentity {
  bootId: string | null;
  pidNamespace: string | null;
  startTimeOf: (pid: number) => string | null;
  pidExists: (pid: number) => boolean;
}

/** `uncertain`: the evidence proves neither; callers keep what it protects. */
export type Liveness = 'alive' | 'dead' | 'uncertain';

function readOrNull(read: () => string): string | null {
  try {
    const value = read().trim();
    return value.length > 0 ? value : null;
  } catch {
    return null;
  }
}

export function bootId(): string | null {
  return readOrNull(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'));
}

export function pidNamespace(): string | null {
  return readOrNull(() => readlinkSync('/proc/self/ns/pid'));
}

/** Start time of a pid in clock ticks since boot (`/proc/<pid>/stat` field 22), or null. */
export function processStartTime(pid: number): string | null {
  const ticks = readOrNull(() => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: split after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? '';
  });
  return ticks !== null && /^\d+$/.test(ticks) ? ticks : null;
}

/** False only when the kernel says no such process (ESRCH); a pid we may not signal still exists. */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

export const currentHost = (): HostIdentity => ({
  bootId: bootId(),
  pidNamespace: pidNamespace(),
  startTimeOf: processStartTime,
  pidExists,
});

/**
 * Dead when the pid is gone or now names a process with another start time; alive when the start
 * time matches; uncertain when either start time is unknown. Boot and PID-namespace identity are
 * the caller's precondition: a pid means nothing outside the boot and namespace that recorded it.
 */
export function judgeProcess(record: ProcessRecord, host: HostIdentity): Liveness {
  if (!host.pidExists(record.pid)) return 'dead';
  const startTime = host.startTimeOf(record.pid);
  if (record.startTime === null || startTime === null) return 'uncertain';
  return startTime === record.startTime ? 'alive' : 'dead';
}
