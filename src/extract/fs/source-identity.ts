/** Opaque references and change evidence for physical sources; paths never leave extract. */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import type { SourceFingerprint, SourceKind } from '../../shared/source-fingerprint.js';

function shortHash(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);
}

export function sourceKeyFor(kind: SourceKind, locator: string): string {
  return `src:${shortHash(kind, locator)}`;
}

export function occurrenceRefFor(sourceKey: string, inSourceLocator: string): string {
  return `occ:${shortHash(sourceKey, inSourceLocator)}`;
}

/** Stat-based fingerprint; `sidecarSuffixes` (e.g. `-wal`) are included because they change too. */
export function fingerprintFile(path: string, sidecarSuffixes: readonly string[] = []): SourceFingerprint {
  const stat = statSync(path);
  const fingerprint: SourceFingerprint = {
    dev: stat.dev,
    ino: stat.ino,
    size: stat.size,
    mtimeMs: Math.trunc(stat.mtimeMs),
  };
  if (sidecarSuffixes.length > 0) {
    fingerprint.sidecars = {};
    for (const suffix of sidecarSuffixes) {
      const side = statSync(path + suffix, { throwIfNoEntry: false });
      // An empty -wal holds no frames: our own read-only open creates one, and it must not look like a change.
      fingerprint.sidecars[suffix] =
        side && side.size > 0 ? { size: side.size, mtimeMs: Math.trunc(side.mtimeMs), ino: side.ino } : null;
    }
  }
  return fingerprint;
}
