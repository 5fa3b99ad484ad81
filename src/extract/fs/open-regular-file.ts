/**
 * Opens a source file for reading without ever blocking: O_NONBLOCK makes a FIFO open at once
 * (it is then refused, never read), and the type is judged on the opened descriptor, so a file
 * swapped for a FIFO or device after discovery's lstat cannot hang the run.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
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
  const fd = openSync(path, FLAGS);
  let regular = false;
  try {
    regular = fstatSync(fd).isFile();
  } finally {
    if (!regular) closeSync(fd);
  }
  if (!regular) throw notARegularFile();
  return fd;
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
