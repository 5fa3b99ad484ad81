/**
 * Streams one admitted entry out of the archive, re-checking the zip bounds on the actual output
 * (entry bytes, archive aggregate, ratio) while computing CRC-32 and SHA-256, into a private 0600
 * file or memory. The caller decides what a size/CRC/SHA-256 disagreement means.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, rmSync } from 'node:fs';
import { type Readable, Transform, type TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Entry, LocalFileHeader } from 'yauzl';
import { checkLimit, SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import { BackupArchiveInvalid } from './backup-errors.js';
import { crc32 } from './crc32.js';
import type { IndexedEntry, ZipIndex } from './zip-index.js';
import { checkRatio } from './zip-index.js';

export interface ExtractedEntry {
  bytes: number;
  sha256: string;
  crcMatches: boolean;
}

/** Aggregate counters of one archive's streamed output. */
export class ArchiveOutputBudget {
  private bytes = 0;
  private compressed = 0;
  constructor(private readonly limits: ReadLimits) {}

  chargeOutput(bytes: number): void {
    this.bytes += bytes;
    checkLimit('zipAggregateBytes', this.limits.zipAggregateBytes, this.bytes);
  }

  chargeCompressed(bytes: number): void {
    this.compressed += bytes;
  }

  checkAggregateRatio(): void {
    checkRatio(this.limits, this.bytes, this.compressed);
  }
}

/** Counts, bounds and hashes a stream of uncompressed entry bytes. */
export class OutputMeter extends Transform {
  bytes = 0;
  crc = 0;
  private readonly hash = createHash('sha256');

  constructor(
    private readonly limits: ReadLimits,
    private readonly budget: ArchiveOutputBudget,
    private readonly compressedSize: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      this.bytes += chunk.length;
      checkLimit('zipEntryBytes', this.limits.zipEntryBytes, this.bytes);
      this.budget.chargeOutput(chunk.length);
      checkRatio(this.limits, this.bytes, this.compressedSize);
      this.crc = crc32(chunk, this.crc);
      this.hash.update(chunk);
      done(null, chunk);
    } catch (error) {
      done(error as Error);
    }
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** Bit 3: sizes and CRC follow the data (a data descriptor); the local header holds zeros. */
const FLAG_DATA_DESCRIPTOR = 0x0008;
/** Flags that change how the data is read: encryption (bits 0 and 6) and the data descriptor. */
const READ_FLAGS = 0x0001 | 0x0040 | FLAG_DATA_DESCRIPTOR;
/** A ZIP64 local header defers its sizes to the extra field. */
const ZIP64_SIZE = 0xffffffff;

/**
 * A local header that disagrees with its central record (name, method, read flags, and without a
 * data descriptor CRC and sizes) lets two readers see two archives, so it is refused, not resolved.
 */
function localAgrees(local: LocalFileHeader, entry: Entry): boolean {
  if (!local.fileName.equals(entry.fileNameRaw) || local.compressionMethod !== entry.compressionMethod)
    return false;
  if ((local.generalPurposeBitFlag ^ entry.generalPurposeBitFlag) & READ_FLAGS) return false;
  if (local.generalPurposeBitFlag & FLAG_DATA_DESCRIPTOR) return true;
  const size = (declared: number, central: number): boolean =>
    declared === ZIP64_SIZE || declared === central;
  return (
    local.crc32 === entry.crc32 &&
    size(local.compressedSize, entry.compressedSize) &&
    size(local.uncompressedSize, entry.uncompressedSize)
  );
}

async function openChecked(index: ZipIndex, item: IndexedEntry): Promise<Readable> {
  const { entry } = item;
  try {
    const local = await index.zip.readLocalFileHeaderPromise(entry);
    if (!localAgrees(local, entry)) throw new BackupArchiveInvalid('local-central-mismatch');
    return await index.zip.openReadStreamPromise(entry);
  } catch (error) {
    if (error instanceof BackupArchiveInvalid) throw error;
    throw new BackupArchiveInvalid('entry-unreadable');
  }
}

function memorySink(chunks: Buffer[]): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
}

/**
 * Extracts an entry to `destination` (created 0600, never overwritten) or, when it is null, into
 * the returned buffer. A partial file is removed on every failure.
 */
export async function extractEntry(
  index: ZipIndex,
  item: IndexedEntry,
  limits: ReadLimits,
  budget: ArchiveOutputBudget,
  destination: string | null,
): Promise<ExtractedEntry & { data: Buffer | null }> {
  const source = await openChecked(index, item);
  const meter = new OutputMeter(limits, budget, item.entry.compressedSize);
  const chunks: Buffer[] = [];
  const sink =
    destination === null ? memorySink(chunks) : createWriteStream(destination, { flags: 'wx', mode: 0o600 });
  try {
    await pipeline(source, meter, sink);
  } catch (error) {
    if (destination !== null) rmSync(destination, { force: true });
    if (error instanceof SourceLimitExceeded || error instanceof BackupArchiveInvalid) throw error;
    throw new BackupArchiveInvalid('entry-stream-invalid');
  }
  budget.chargeCompressed(item.entry.compressedSize);
  return {
    bytes: meter.bytes,
    sha256: meter.digest(),
    crcMatches: meter.crc === item.entry.crc32 >>> 0,
    data: destination === null ? Buffer.concat(chunks) : null,
  };
}
