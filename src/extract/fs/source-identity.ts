/** Opaque references and change evidence for physical sources; paths never leave extract. */
import * as crypto from 'node:crypto';
import { statSync } from 'node:fs';
import type { SourceFingerprint, SourceKind } from '../../shared/source-fingerprint.js';

/** One-shot `crypto.hash` (Node ≥ 20.12) where present: a `Hash` object per key cost more than its digest. */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

function shortHash(...parts: string[]): string {
  return sha256Hex(parts.join('\0')).slice(0, 32);
}

export function sourceKeyFor(kind: SourceKind, locator: string): string {
  return `src:${shortHash(kind, locator)}`;
}

export function occurrenceRefFor(sourceKey: string, inSourceLocator: string): string {
  return `occ:${shortHash(sourceKey, inSourceLocator)}`;
}

/** Stat-based fingerprint; `sidecarSuffixes` (e.g. `-wal`) are included because they change too. */
export function fingerprintFile(path: string, sidecarSuffixes: readonly string[] = []): SourceFingerprint {
  const stat = statSync(path, { bigint: true });
  const fingerprint: SourceFingerprint = {
    dev: Number(stat.dev),
    ino: Number(stat.ino),
    size: Number(stat.size),
    mtimeMs: Number(stat.mtimeMs),
    mtimeNs: String(stat.mtimeNs),
    ctimeNs: String(stat.ctimeNs),
  };
  if (sidecarSuffixes.length > 0) {
    fingerprint.sidecars = {};
    for (const suffix of sidecarSuffixes) {
      const side = statSync(path + suffix, { bigint: true, throwIfNoEntry: false });
      // An empty -wal holds no frames: our own read-only open creates one, and it must not look like a change.
      fingerprint.sidecars[suffix] =
        side && side.size > 0n
          ? {
              size: Number(side.size),
              mtimeMs: Number(side.mtimeMs),
              ino: Number(side.ino),
              ctimeNs: String(side.ctimeNs),
            }
          : null;
    }
  }
  return fingerprint;
}
