/**
 * Opens a backup archive with yauzl (lazy entries, no extraction) and admits its central directory
 * as a whole before any entry is decompressed: container size, entry count, per-entry and aggregate
 * declared sizes and ratios, safe names, regular files only, STORE/DEFLATE, no encryption.
 */
import { closeSync, fstatSync } from 'node:fs';
import type { Entry, ZipFile } from 'yauzl';
import { requireCommonJs } from '../../shared/require-commonjs.js';
import { openRegularFileSync } from '../fs/open-regular-file.js';
import { checkLimit, SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import { BackupArchiveInvalid } from './backup-errors.js';
import { checkEntryName, foldedName } from './entry-name.js';

/** Required at the first archive opened: most runs read no backup. */
let yauzl: typeof import('yauzl') | null = null;

export interface IndexedEntry {
  name: string;
  entry: Entry;
}

export interface ZipIndex {
  zip: ZipFile;
  /** Entries by exact (already validated) name, in central-directory order. */
  entries: Map<string, IndexedEntry>;
  close(): void;
}

const STORE = 0;
const DEFLATE = 8;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const UNIX_HOST = 3;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

/**
 * Opens the archive without blocking (a FIFO opens at once under O_NONBLOCK and is never read) and
 * admits only a regular file, judged on the opened descriptor. A missing path keeps its ENOENT (the
 * caller's BACKUP_NOT_FOUND); any other open failure (denied, a symlink loop) is an unreadable
 * container.
 */
function openArchiveFile(path: string): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openRegularFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw error;
    if (code === 'not-a-regular-file') throw new BackupArchiveInvalid('not-a-regular-file');
    throw new BackupArchiveInvalid('container-unreadable', { errno: code ?? 'unknown' });
  }
  return { fd, size: fstatSync(fd).size };
}

function openZip(fd: number): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl ??= requireCommonJs('yauzl') as typeof import('yauzl');
    yauzl.fromFd(
      fd,
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true },
      (error, zip) => (error || !zip ? reject(error) : resolve(zip)),
    );
  });
}

/** Ratio `uncompressed / max(compressed, 1)`; an empty output never fails. */
export function checkRatio(limits: ReadLimits, uncompressed: number, compressed: number): void {
  if (uncompressed === 0) return;
  const ratio = uncompressed / Math.max(compressed, 1);
  if (ratio > limits.zipCompressionRatio)
    throw new SourceLimitExceeded('zipCompressionRatio', limits.zipCompressionRatio, ratio);
}

function isRegularFile(entry: Entry, name: string): boolean {
  if (name.endsWith('/')) return false;
  if (entry.versionMadeBy >>> 8 !== UNIX_HOST) return true;
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  return type === 0 || type === S_IFREG;
}

function admitEntry(entry: Entry): string {
  const checked = checkEntryName(entry.fileNameRaw, true);
  if (!checked.ok) throw new BackupArchiveInvalid('unsafe-entry-name', { nameProblem: checked.reason });
  if (!isRegularFile(entry, checked.name)) throw new BackupArchiveInvalid('non-regular-entry');
  if (entry.generalPurposeBitFlag & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION))
    throw new BackupArchiveInvalid('encrypted-entry');
  if (entry.compressionMethod !== STORE && entry.compressionMethod !== DEFLATE)
    throw new BackupArchiveInvalid('unsupported-compression-method', { method: entry.compressionMethod });
  return checked.name;
}

function checkPrefixConflicts(names: Iterable<string>): void {
  const folded = new Set([...names].map(foldedName));
  for (const name of folded) {
    const segments = name.split('/');
    for (let i = 1; i < segments.length; i++) {
      if (folded.has(segments.slice(0, i).join('/')))
        throw new BackupArchiveInvalid('file-directory-conflict');
    }
  }
}

async function readCentralDirectory(zip: ZipFile, limits: ReadLimits): Promise<Map<string, IndexedEntry>> {
  checkLimit('zipEntryCount', limits.zipEntryCount, zip.entryCount);
  const entries = new Map<string, IndexedEntry>();
  const folded = new Set<string>();
  const offsets = new Set<number>();
  let aggregate = 0;
  let aggregateCompressed = 0;
  for await (const entry of zip.eachEntry()) {
    const name = admitEntry(entry);
    checkLimit('zipEntryBytes', limits.zipEntryBytes, entry.uncompressedSize);
    checkRatio(limits, entry.uncompressedSize, entry.compressedSize);
    aggregate += entry.uncompressedSize;
    aggregateCompressed += entry.compressedSize;
    checkLimit('zipAggregateBytes', limits.zipAggregateBytes, aggregate);
    const key = foldedName(name);
    if (folded.has(key)) throw new BackupArchiveInvalid('duplicate-entry-name');
    if (offsets.has(entry.relativeOffsetOfLocalHeader)) throw new BackupArchiveInvalid('shared-local-header');
    folded.add(key);
    offsets.add(entry.relativeOffsetOfLocalHeader);
    entries.set(name, { name, entry });
  }
  checkRatio(limits, aggregate, aggregateCompressed);
  checkPrefixConflicts(entries.keys());
  return entries;
}

/** Opens and admits an archive; every failure is fatal for this archive and closes it. */
export async function openZipIndex(path: string, limits: ReadLimits): Promise<ZipIndex> {
  const { fd, size } = openArchiveFile(path);
  let zip: ZipFile;
  try {
    checkLimit('zipCompressedBytes', limits.zipCompressedBytes, size);
    zip = await openZip(fd);
  } catch (error) {
    // Until yauzl owns the descriptor (closing the ZipFile closes it), it is ours to close.
    closeSync(fd);
    if (error instanceof SourceLimitExceeded) throw error;
    throw new BackupArchiveInvalid('container-unreadable');
  }
  try {
    const entries = await readCentralDirectory(zip, limits);
    return { zip, entries, close: () => zip.close() };
  } catch (error) {
    zip.close();
    if (error instanceof SourceLimitExceeded || error instanceof BackupArchiveInvalid) throw error;
    throw new BackupArchiveInvalid('central-directory-unreadable');
  }
}
