/**
 * The `.owner` marker of a private temp workspace (format v2): the owning pid plus the evidence
 * that proves the pid still means the same process — the host boot ID, the PID-namespace inode and
 * the process start time (Linux `/proc`). Anything unreadable is recorded as null, never guessed.
 */
import { bootId, pidNamespace, processStartTime } from '../process/process-identity.js';

export interface OwnerMarker {
  v: 2;
  pid: number;
  bootId: string | null;
  pidNamespace: string | null;
  startTime: string | null;
}

export function currentOwnerMarker(): OwnerMarker {
  return {
    v: 2,
    pid: process.pid,
    bootId: bootId(),
    pidNamespace: pidNamespace(),
    startTime: processStartTime(process.pid),
  };
}

/** Parses a marker; null for malformed or unknown versions (kept as invalid by recovery). */
export function parseOwnerMarker(text: string): OwnerMarker | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  const optional = (x: unknown): x is string | null => x === null || typeof x === 'string';
  if (m.v !== 2 || !Number.isSafeInteger(m.pid) || (m.pid as number) <= 0) return null;
  if (!optional(m.bootId) || !optional(m.pidNamespace) || !optional(m.startTime)) return null;
  return {
    v: 2,
    pid: m.pid as number,
    bootId: m.bootId,
    pidNamespace: m.pidNamespace,
    startTime: m.startTime,
  };
}
