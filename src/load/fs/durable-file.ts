/**
 * Durable publication of files: content goes to a private temp file beside the target, is flushed,
 * then renamed over it, so a reader sees the old file or the new one, never half of one.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { outputModes } from '../../shared/output-permissions.js';

let sequence = 0;

/** A private sibling path for staging `target` (same directory, so the rename is atomic). */
export function siblingTempPath(target: string): string {
  sequence += 1;
  return join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${sequence}`);
}

export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flushes a finished temp file, renames it over the target and flushes the directory entry. */
export function publishFile(tempPath: string, target: string): void {
  fsyncPath(tempPath);
  renameSync(tempPath, target);
  fsyncPath(dirname(target));
}

/** Writes `content` to `target` (output permissions) with temp + rename; the temp file never survives. */
export function writeFileDurably(target: string, content: string): void {
  const temp = siblingTempPath(target);
  try {
    const fd = openSync(temp, 'wx', outputModes().file);
    try {
      writeSync(fd, content);
    } finally {
      closeSync(fd);
    }
    publishFile(temp, target);
  } finally {
    rmSync(temp, { force: true });
  }
}
