/**
 * A DuckDB file cut short still opens (DuckDB reads only the blocks a query touches). The active
 * header names the file's block count; a shorter file is refused before anything is read or written.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, statSync } from 'node:fs';
import { IntegrityError } from '../../shared/errors.js';

/** The main header, then two database headers (the one with the higher iteration is active). */
const HEADER_BYTES = 4096;
const HEADERS_END = 3 * HEADER_BYTES;
const MAGIC = Buffer.from('DUCK');
/** Within a database header, after its checksum: iteration, meta block, free list, block count, block size. */
const ITERATION_AT = 8;
const BLOCK_COUNT_AT = 32;
const BLOCK_SIZE_AT = 40;

function truncated(expectedBytes: number, actualBytes: number): IntegrityError<'WAREHOUSE_TRUNCATED'> {
  return new IntegrityError(
    'WAREHOUSE_TRUNCATED',
    'The warehouse file is shorter than its header says: it was cut off; nothing was written',
    { expectedBytes, actualBytes },
  );
}

interface Layout {
  size: number;
  /** Null when the file is not one this check reads (absent, empty, not DuckDB's). */
  declared: { bytes: number; blockSize: number } | null;
}

function readLayout(fd: number): Layout {
  const size = fstatSync(fd).size;
  const headers = Buffer.alloc(HEADERS_END);
  const read = readSync(fd, headers, 0, HEADERS_END, 0);
  // A file that is not DuckDB's at all is left to DuckDB's own open, which refuses it.
  if (read < MAGIC.length + 8 || !headers.subarray(8, 8 + MAGIC.length).equals(MAGIC)) {
    return { size, declared: null };
  }
  if (read < HEADERS_END) throw truncated(HEADERS_END, size);
  const active = [HEADER_BYTES, 2 * HEADER_BYTES].reduce((a, b) =>
    headers.readBigUInt64LE(b + ITERATION_AT) > headers.readBigUInt64LE(a + ITERATION_AT) ? b : a,
  );
  const blocks = Number(headers.readBigUInt64LE(active + BLOCK_COUNT_AT));
  const blockSize = Number(headers.readBigUInt64LE(active + BLOCK_SIZE_AT));
  // DuckDB's block sizes are powers of two from 16 KiB to 256 KiB; anything else is not this layout.
  if (blockSize < 16_384 || blockSize > 262_144 || (blockSize & (blockSize - 1)) !== 0) {
    return { size, declared: null };
  }
  return { size, declared: { bytes: HEADERS_END + blocks * blockSize, blockSize } };
}

function withFile<T>(path: string, flags: string, work: (fd: number) => T): T | undefined {
  let fd: number;
  try {
    if (statSync(path).size === 0) return undefined;
    fd = openSync(path, flags);
  } catch {
    return undefined; // Absent (a first run) or unreadable: the open itself reports it.
  }
  try {
    return work(fd);
  } finally {
    closeSync(fd);
  }
}

/** Throws WAREHOUSE_TRUNCATED when `path` is a DuckDB file shorter than its active header declares. */
export function assertWholeFile(path: string): void {
  withFile(path, 'r', (fd) => {
    const { size, declared } = readLayout(fd);
    if (declared !== null && size < declared.bytes) throw truncated(declared.bytes, size);
  });
}

/**
 * A checkpoint writes its header, block count included, and then DuckDB trims the free blocks at
 * the end of the file. Once the writer has closed, those blocks are given back as zeros (free blocks
 * are never read), so the file is again as long as its header says.
 */
export function restoreTrimmedTail(path: string): void {
  withFile(path, 'r+', (fd) => {
    const { size, declared } = readLayout(fd);
    if (declared === null || size >= declared.bytes) return;
    if ((declared.bytes - size) % declared.blockSize !== 0) return;
    ftruncateSync(fd, declared.bytes);
    fsyncSync(fd);
  });
}
