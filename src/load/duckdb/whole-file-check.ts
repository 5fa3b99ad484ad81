/**
 * A DuckDB file cut short still opens (DuckDB reads only the blocks a query touches). The active
 * header names the file's block count; a shorter file is refused before anything is read or written,
 * unless only free blocks are missing (a checkpoint trims trailing free blocks after its header).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { IntegrityError } from '../../shared/errors.js';
import { DuckDBInstance } from './duckdb-api.js';
import { sqlString } from './sql-string.js';

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

interface DeclaredLayout {
  bytes: number;
  blockSize: number;
}

/** The bytes the file's active header accounts for, or null when the header is not one this check reads. */
function declaredLayout(headers: Buffer): DeclaredLayout | null {
  const active = [HEADER_BYTES, 2 * HEADER_BYTES].reduce((a, b) =>
    headers.readBigUInt64LE(b + ITERATION_AT) > headers.readBigUInt64LE(a + ITERATION_AT) ? b : a,
  );
  const blocks = headers.readBigUInt64LE(active + BLOCK_COUNT_AT);
  const blockSize = headers.readBigUInt64LE(active + BLOCK_SIZE_AT);
  // DuckDB's block sizes are powers of two from 16 KiB to 256 KiB; anything else is not this layout.
  const size = Number(blockSize);
  if (size < 16_384 || size > 262_144 || (size & (size - 1)) !== 0) return null;
  return { bytes: HEADERS_END + Number(blocks) * size, blockSize: size };
}

/** The highest block id any table segment or metadata block of the file uses (-1 when none). */
async function highestUsedBlock(path: string): Promise<number> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    try {
      const tables = (await connection.runAndReadAll('SELECT table_name FROM duckdb_tables()'))
        .getRowObjects()
        .map((row) => sqlString(String(row.table_name)));
      const blocks = [
        'SELECT block_id AS b FROM pragma_metadata_info()',
        ...tables.flatMap((t) => [
          `SELECT block_id AS b FROM pragma_storage_info(${t})`,
          `SELECT unnest(additional_block_ids) AS b FROM pragma_storage_info(${t})`,
        ]),
      ];
      const reader = await connection.runAndReadAll(
        `SELECT coalesce(max(b), -1) AS highest FROM (${blocks.join(' UNION ALL ')})`,
      );
      return Number(reader.getRowObjects()[0]!.highest);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

/**
 * Throws WAREHOUSE_TRUNCATED when `path` is a DuckDB file cut short: shorter than its headers, not a
 * whole number of blocks, or missing a block that a table or the metadata still uses.
 */
export async function assertWholeFile(path: string): Promise<void> {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    return; // Absent (a first run) or unreadable: the open itself reports it.
  }
  if (size === 0) return;
  const headers = Buffer.alloc(HEADERS_END);
  const fd = openSync(path, 'r');
  let read: number;
  try {
    read = readSync(fd, headers, 0, HEADERS_END, 0);
  } finally {
    closeSync(fd);
  }
  // A file that is not DuckDB's at all is left to DuckDB's own open, which refuses it.
  if (read < MAGIC.length + 8 || !headers.subarray(8, 8 + MAGIC.length).equals(MAGIC)) return;
  if (read < HEADERS_END) throw truncated(HEADERS_END, size);
  const declared = declaredLayout(headers);
  if (declared === null || size >= declared.bytes) return;
  const blocks = (size - HEADERS_END) / declared.blockSize;
  if (!Number.isInteger(blocks)) throw truncated(declared.bytes, size);
  let highest: number;
  try {
    highest = await highestUsedBlock(path);
  } catch (error) {
    // Another process's lock says nothing about the file's length: the open reports it.
    if (error instanceof Error && /lock/i.test(error.message)) return;
    throw truncated(declared.bytes, size);
  }
  if (highest >= blocks) throw truncated(declared.bytes, size);
}
