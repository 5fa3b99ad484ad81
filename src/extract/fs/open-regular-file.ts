/**
 * Opens a source file for reading without ever blocking: O_NONBLOCK makes a FIFO open at once
 * (it is then refused, never read), and the type is judged on the opened descriptor, so a file
 * swapped for a FIFO or device after discovery's lstat cannot hang the run.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** An errno-shaped error, so callers that map `code` of failed opens report it like any other. */
function notARegularFile(): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error('the source is not a regular file');
  error.code = 'not-a-regular-file';
  error.syscall = 'open';
  return error;
}

export function openRegularFileSync(path: string): number {
  return openSizedRegularFileSync(path).fd;
}

/** Like `openRegularFileSync`, with the size its one `fstat` saw. */
export function openSizedRegularFileSync(path: string): { fd: number; size: number } {
  const fd = openSync(path, FLAGS);
  let size = -1;
  try {
    const stat = fstatSync(fd);
    if (stat.isFile()) size = stat.size;
  } finally {
    if (size < 0) closeSync(fd);
  }
  if (size < 0) throw notARegularFile();
  return { fd, size };
}

/**
 * The bytes of an open file from its start, reading past `size` if it grew; null once more than
 * `maxBytes` are there. Saves the `fstat` of `readFileSync` on many small files.
 */
export function readOpenedFileSync(fd: number, size: number, maxBytes: number): Buffer | null {
  let buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
  let used = 0;
  for (;;) {
    if (used === buffer.length) {
      if (used > maxBytes) return null;
      const grown = Buffer.allocUnsafe(Math.min(used * 2, maxBytes + 1));
      buffer.copy(grown, 0, 0, used);
      buffer = grown;
    }
    const read = readSync(fd, buffer, used, buffer.length - used, used);
    if (read === 0) return buffer.subarray(0, used);
    used += read;
  }
}

export async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await open(path, FLAGS);
  let regular = false;
  try {
    regular = (await handle.stat()).isFile();
  } finally {
    if (!regular) await handle.close();
  }
  if (!regular) throw notARegularFile();
  return handle;
}
