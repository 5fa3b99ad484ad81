/**
 * One opened backup archive: its admitted central directory and validated manifest, and lazy,
 * verified extraction of declared entries into a private User-shaped tree. An entry is checked
 * (declared size, SHA-256, CRC-32) only when it is extracted; a mismatch is never used.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NotFoundError } from '../../shared/errors.js';
import type { ReadLimits } from '../limits/read-limits.js';
import { BackupManifestInvalid } from './backup-errors.js';
import {
  type BackupManifest,
  MANIFEST_MAX_BYTES,
  MANIFEST_NAME,
  type ManifestFile,
  parseManifest,
} from './backup-manifest.js';
import { ArchiveOutputBudget, extractEntry } from './entry-extract.js';
import { openZipIndex, type ZipIndex } from './zip-index.js';

export type IntegrityProblem = 'missing-entry' | 'size' | 'checksum' | 'crc';

export type Materialized = { ok: true; path: string } | { ok: false; problem: IntegrityProblem };

export class BackupArchive {
  private readonly budget: ArchiveOutputBudget;
  private readonly done = new Map<string, Materialized>();

  private constructor(
    private readonly index: ZipIndex,
    readonly manifest: BackupManifest,
    private readonly limits: ReadLimits,
    /** Private directory that plays the Cursor `User` directory for this archive. */
    readonly userDir: string,
  ) {
    this.budget = new ArchiveOutputBudget(limits);
  }

  /** Admits the container and the manifest; nothing but `manifest.json` is decompressed. */
  static async open(path: string, limits: ReadLimits, userDir: string): Promise<BackupArchive> {
    let index: ZipIndex;
    try {
      index = await openZipIndex(path, limits);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new NotFoundError('BACKUP_NOT_FOUND', 'A backup archive given to the run does not exist', {});
      throw error;
    }
    try {
      const item = index.entries.get(MANIFEST_NAME);
      if (!item) throw new BackupManifestInvalid('missing');
      if (item.entry.uncompressedSize > MANIFEST_MAX_BYTES) throw new BackupManifestInvalid('too-large');
      const budget = new ArchiveOutputBudget(limits);
      const { data, crcMatches } = await extractEntry(index, item, limits, budget, null);
      if (!crcMatches) throw new BackupManifestInvalid('crc-mismatch');
      const manifest = parseManifest(data!, [...index.entries.keys()]);
      mkdirSync(userDir, { mode: 0o700 });
      return new BackupArchive(index, manifest, limits, userDir);
    } catch (error) {
      index.close();
      throw error;
    }
  }

  /** Extracts and verifies one declared file once; later calls return the first outcome. */
  async materialize(file: ManifestFile): Promise<Materialized> {
    const known = this.done.get(file.path);
    if (known) return known;
    const outcome = await this.extractVerified(file);
    this.done.set(file.path, outcome);
    return outcome;
  }

  close(): void {
    this.index.close();
  }

  private async extractVerified(file: ManifestFile): Promise<Materialized> {
    const item = this.index.entries.get(file.path) ?? this.findByNfc(file.path);
    if (!item) return { ok: false, problem: 'missing-entry' };
    if (item.entry.uncompressedSize !== file.size) return { ok: false, problem: 'size' };
    const destination = join(this.userDir, ...file.path.normalize('NFC').split('/'));
    mkdirSync(dirname(destination), { recursive: true, mode: 0o700 });
    const result = await extractEntry(this.index, item, this.limits, this.budget, destination);
    this.budget.checkAggregateRatio();
    const problem: IntegrityProblem | null =
      result.bytes !== file.size
        ? 'size'
        : !result.crcMatches
          ? 'crc'
          : result.sha256 !== file.sha256
            ? 'checksum'
            : null;
    if (problem === null) return { ok: true, path: destination };
    rmSync(destination, { force: true });
    return { ok: false, problem };
  }

  private findByNfc(path: string) {
    const wanted = path.normalize('NFC');
    for (const item of this.index.entries.values()) if (item.name.normalize('NFC') === wanted) return item;
    return undefined;
  }
}
