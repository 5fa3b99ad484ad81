/**
 * Verified prefix checkpoints for append-only sources (transcripts): device, inode, size and the
 * SHA-256 of the first `size` bytes. A read resumes at `size` only when the same file still starts
 * with those bytes; anything else means a full re-read.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegularFileSync } from './open-regular-file.js';

export interface PrefixCheckpoint {
  v: 1;
  dev: number;
  ino: number;
  size: number;
  prefixSha256: string;
}

export type ResumeDecision =
  | { resume: true; offset: number }
  | { resume: false; reason: 'no-checkpoint' | 'replaced' | 'shrunk' | 'prefix-mismatch' };

const CHUNK = 1 << 20;

function hashPrefix(fd: number, length: number): string {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(length, 1)));
  let position = 0;
  while (position < length) {
    const read = readSync(fd, buffer, 0, Math.min(buffer.length, length - position), position);
    if (read === 0) break;
    hash.update(buffer.subarray(0, read));
    position += read;
  }
  return hash.digest('hex');
}

/** The checkpoint of the file as it is now (its whole current content is the prefix). */
export function takeCheckpoint(path: string): PrefixCheckpoint {
  const fd = openRegularFileSync(path);
  try {
    const stat = fstatSync(fd);
    return { v: 1, dev: stat.dev, ino: stat.ino, size: stat.size, prefixSha256: hashPrefix(fd, stat.size) };
  } finally {
    closeSync(fd);
  }
}

/** Whether reading may resume after the checkpointed prefix, judged on the same open file. */
export function decideResume(path: string, checkpoint: PrefixCheckpoint | null): ResumeDecision {
  if (checkpoint === null) return { resume: false, reason: 'no-checkpoint' };
  const fd = openRegularFileSync(path);
  try {
    const stat = fstatSync(fd);
    if (stat.dev !== checkpoint.dev || stat.ino !== checkpoint.ino)
      return { resume: false, reason: 'replaced' };
    if (stat.size < checkpoint.size) return { resume: false, reason: 'shrunk' };
    if (hashPrefix(fd, checkpoint.size) !== checkpoint.prefixSha256)
      return { resume: false, reason: 'prefix-mismatch' };
    return { resume: true, offset: checkpoint.size };
  } finally {
    closeSync(fd);
  }
}

export function isPrefixCheckpoint(value: unknown): value is PrefixCheckpoint {
  const v = value as Partial<PrefixCheckpoint> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.v === 1 &&
    typeof v.dev === 'number' &&
    typeof v.ino === 'number' &&
    typeof v.size === 'number' &&
    typeof v.prefixSha256 === 'string'
  );
}

/** Given to adapters through `ReadContext.checkpoints`: the ledger's checkpoint and a place for the new one. */
export interface CheckpointRegistry {
  previous(sourceKey: string): PrefixCheckpoint | null;
  record(sourceKey: string, checkpoint: PrefixCheckpoint): void;
}
