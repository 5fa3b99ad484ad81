/**
 * Conservative recovery of temp workspaces left by dead runs (SIGKILL, power loss). A workspace is
 * removed only when it is ours (our uid, a real 0700 directory, our prefix) and its v2 marker
 * proves its owner dead: same boot and PID namespace, and the pid is gone or now names a process
 * with another start time. Legacy, malformed, foreign-boot or unreadable evidence is kept.
 */
import { lstatSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { currentHost, type HostIdentity, judgeProcess } from '../process/process-identity.js';
import { type OwnerMarker, parseOwnerMarker } from './temp-owner-marker.js';

export type StaleVerdict = 'dead' | 'alive' | 'uncertain' | 'invalid';

export function judgeMarker(marker: OwnerMarker | null, host: HostIdentity): StaleVerdict {
  if (marker === null) return 'invalid';
  if (marker.bootId === null || marker.pidNamespace === null || marker.startTime === null) return 'uncertain';
  if (host.bootId === null || host.pidNamespace === null) return 'uncertain';
  if (marker.bootId !== host.bootId || marker.pidNamespace !== host.pidNamespace) return 'uncertain';
  return judgeProcess(marker, host);
}

function readMarker(dir: string): OwnerMarker | null {
  try {
    return parseOwnerMarker(readFileSync(join(dir, '.owner'), 'utf8'));
  } catch {
    return null;
  }
}

/** Removes proven-dead owned workspaces under `parent`; returns how many were removed. */
export function recoverStaleTempDirs(parent: string, prefix: string, host = currentHost()): number {
  let names: string[];
  try {
    names = readdirSync(parent).filter((name) => name.startsWith(prefix));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const dir = join(parent, name);
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (!stat?.isDirectory() || (stat.mode & 0o777) !== 0o700) continue;
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) continue;
    if (judgeMarker(readMarker(dir), host) !== 'dead') continue;
    rmSync(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
