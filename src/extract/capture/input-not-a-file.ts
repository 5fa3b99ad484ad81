/**
 * An input path that is neither a regular file nor a directory (FIFO, socket, device) is never
 * opened: a FIFO blocks until a writer appears, a device never ends. Named by `--input` it is a
 * usage error; met while walking a folder, it is skipped with a diagnostic.
 */
import type { Stats } from 'node:fs';
import { UsageError } from '../../shared/errors.js';

export type NonFileType = 'fifo' | 'socket' | 'character-device' | 'block-device';

/** The kind of a special file from its `lstat`, or null for a file, a directory or a symlink. */
export function nonFileType(stat: Stats): NonFileType | null {
  if (stat.isFIFO()) return 'fifo';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice()) return 'character-device';
  if (stat.isBlockDevice()) return 'block-device';
  return null;
}

export class CaptureInputNotAFile extends UsageError<'CAPTURE_NOT_A_FILE'> {
  constructor(fileType: NonFileType) {
    super('CAPTURE_NOT_A_FILE', 'An --input path is not a regular file or a folder', {
      fileType,
      remedy: 'Save the capture to a regular file and give that file (or its folder) as --input.',
    });
  }
}
