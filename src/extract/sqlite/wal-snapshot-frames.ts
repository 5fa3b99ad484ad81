/**
 * The WAL frames a read transaction sees, found from outside SQLite: the wal-index header in the
 * `-shm` file names the last frame of the newest commit. Read before and after the read began and
 * found equal, it names the read's own snapshot (every commit changes it).
 */
import { readSync } from 'node:fs';
import { endianness } from 'node:os';

/** Both copies of the wal-index header, as the `-shm` file holds them. */
const HEADER_BYTES = 96;
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
const WAL_INDEX_VERSION = 3007000;

/** The snapshot's last frame and the WAL's salts, from a wal-index header. */
export interface WalSnapshot {
  mxFrame: number;
  pageSize: number;
  /** The two salts as the WAL header and every frame of this WAL generation store them. */
  salt: Buffer;
}

/** The header bytes of an open `-shm` file, or null when it is shorter than a header. */
export function readWalIndexHeader(shmFd: number): Buffer | null {
  const bytes = Buffer.alloc(HEADER_BYTES);
  return readSync(shmFd, bytes, 0, HEADER_BYTES, 0) === HEADER_BYTES ? bytes : null;
}

/**
 * The snapshot a header taken before the read began (`before`) and one taken after (`after`) name,
 * or null when they differ, are torn or are not a wal-index this reader knows (the header is in the
 * host's byte order).
 */
export function walSnapshotOf(before: Buffer | null, after: Buffer | null): WalSnapshot | null {
  if (before === null || after === null || !before.equals(after) || endianness() !== 'LE') return null;
  const first = after.subarray(0, 48);
  if (!first.equals(after.subarray(48, 96))) return null;
  if (first.readUInt32LE(0) !== WAL_INDEX_VERSION || first[12] !== 1) return null;
  const size = first.readUInt16LE(14);
  const pageSize = size === 1 ? 65536 : size;
  return { mxFrame: first.readUInt32LE(16), pageSize, salt: Buffer.from(first.subarray(32, 40)) };
}

/**
 * Page number → byte offset in the WAL of the newest frame of it the snapshot sees. Empty when a
 * frame carries other salts: the WAL was restarted, which SQLite does only once every frame of a
 * snapshot still read is in the database file. Null when the WAL is shorter than the snapshot.
 */
export function snapshotFrames(walFd: number, snapshot: WalSnapshot): Map<number, number> | null {
  const frames = new Map<number, number>();
  const frameBytes = FRAME_HEADER_BYTES + snapshot.pageSize;
  const header = Buffer.alloc(FRAME_HEADER_BYTES);
  for (let i = 0; i < snapshot.mxFrame; i++) {
    const at = WAL_HEADER_BYTES + i * frameBytes;
    if (readSync(walFd, header, 0, FRAME_HEADER_BYTES, at) !== FRAME_HEADER_BYTES) return null;
    if (!header.subarray(8, 16).equals(snapshot.salt)) return new Map();
    frames.set(header.readUInt32BE(0), at + FRAME_HEADER_BYTES);
  }
  return frames;
}
