/**
 * Removes temp workspaces of dead runs, conservatively: only ours (our uid, a 0700 directory, our
 * prefix) whose v2 marker proves the owner dead (same boot and PID namespace; pid gone or reused).
 * Legacy, malformed, foreign-boot or unreadable evidence is kept.
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
