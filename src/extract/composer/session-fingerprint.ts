/**
 * A global session's change evidence. The cheap part comes from the key index alone (bubble and
 * `codeBlockDiff` counts and rowids, the `composerData` rowid and length); an in-place `UPDATE` keeps
 * rowids, so a SHA-256 over its values is computed when asked for, or by a full hydration.
 */
import { createHash, type Hash } from 'node:crypto';
import { isSqliteError } from '../sqlite/sqlite-snapshot.js';

export interface SessionStats {
  rows: number;
  maxRowid: number | null;
  rowidSum: number;
  docRowid: number | null;
  docBytes: number | null;
  /** The session's `codeBlockDiff` rows: count and summed rowids (key index only). */
  diffRows: number;
  diffRowidSum: number;
}

export function fingerprintOf(stats: SessionStats): string {
  const base = [stats.rows, stats.maxRowid, stats.rowidSum, stats.docRowid, stats.docBytes];
  // A session without diff rows keeps the fingerprint it had before they were read.
  const parts = stats.diffRows === 0 ? base : [...base, stats.diffRows, stats.diffRowidSum];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** The content part, fed the `composerData` value (or its absence) and then each bubble by rowid. */
export class ContentDigest {
  private readonly hash: Hash = createHash('sha256');

  doc(bytes: Uint8Array | null | undefined): void {
    this.value(bytes === undefined ? 'absent' : bytes);
  }

  /** The same bytes as `r<rowid>;` then the value, with one update fewer per row. */
  bubble(rowid: number, bytes: Uint8Array | null): void {
    if (bytes === null) this.hash.update(`r${rowid};n;`);
    else this.hash.update(`r${rowid};${bytes.length};`).update(bytes);
  }

  /** A `codeBlockDiff` row, fed after every bubble, in rowid order. */
  diff(rowid: number, bytes: Uint8Array | null): void {
    if (bytes === null) this.hash.update(`d${rowid};n;`);
    else this.hash.update(`d${rowid};${bytes.length};`).update(bytes);
  }

  digest(): string {
    return this.hash.digest('hex');
  }

  private value(bytes: Uint8Array | null | 'absent'): void {
    if (bytes === 'absent' || bytes === null) this.hash.update(bytes === null ? 'n;' : 'a;');
    else this.hash.update(`${bytes.length};`).update(bytes);
  }
}

/** The queries of one global DB, shared by its sessions' fingerprints. */
export interface SessionEvidenceQuery {
  stats(composerId: string): SessionStats;
  /** `fingerprint`: the session's own, which a digest computed apart from SQLite must match. */
  content(composerId: string, fingerprint: string): string;
}

/** Not a digest: no fingerprint `fingerprintOf` gives (or the ledger stores) equals it. */
export const UNREADABLE_FINGERPRINT = 'unreadable';

/** Holds only its session's ID beside the shared queries: a closure per session cost ~200 B each. */
export class LazyFingerprint {
  private value: string | null = null;
  private contentValue: string | null = null;
  constructor(
    private readonly query: SessionEvidenceQuery,
    private readonly composerId: string,
  ) {}

  /** What a hydration gathered from the rows it read; ignored once known. */
  supply(stats: SessionStats, content: string | null): void {
    this.value ??= fingerprintOf(stats);
    this.contentValue ??= content;
  }

  /**
   * Evidence SQLite cannot read (a corrupt page) is `UNREADABLE_FINGERPRINT`, never kept: it matches
   * no stored one, so the session is read again and its own read reports the damage.
   */
  get(): string {
    if (this.value !== null) return this.value;
    try {
      this.value = fingerprintOf(this.query.stats(this.composerId));
      return this.value;
    } catch (error) {
      if (!isSqliteError(error)) throw error;
      return UNREADABLE_FINGERPRINT;
    }
  }

  /**
   * The content part: computed when `compute` asks for it, else only if a hydration supplied it;
   * null (unknown) when SQLite cannot read the values.
   */
  content(compute: boolean): string | null {
    if (!compute || this.contentValue !== null) return this.contentValue;
    try {
      this.contentValue = this.query.content(this.composerId, this.get());
    } catch (error) {
      if (!isSqliteError(error)) throw error;
    }
    return this.contentValue;
  }
}
