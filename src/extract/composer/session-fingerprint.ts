/**
 * A global session's change evidence from the key index alone: bubble count, max rowid, summed
 * rowids, plus the `composerData` row's rowid and length (every Cursor write gives the row a new
 * rowid). A complete hydration supplies it without the stats query.
 */
import { createHash } from 'node:crypto';

export interface SessionStats {
  rows: number;
  maxRowid: number | null;
  rowidSum: number;
  docRowid: number | null;
  docBytes: number | null;
}

export function fingerprintOf(stats: SessionStats): string {
  return createHash('sha256')
    .update(JSON.stringify([stats.rows, stats.maxRowid, stats.rowidSum, stats.docRowid, stats.docBytes]))
    .digest('hex');
}

/** The stats query of one global DB, shared by its sessions' fingerprints. */
export type SessionStatsQuery = (composerId: string) => SessionStats;

/** Holds only its session's ID beside the shared query: a closure per session cost ~200 B each. */
export class LazyFingerprint {
  private value: string | null = null;
  constructor(
    private readonly query: SessionStatsQuery,
    private readonly composerId: string,
  ) {}

  /** Stats a hydration gathered from the rows it read; ignored once the fingerprint is known. */
  supply(stats: SessionStats): void {
    this.value ??= fingerprintOf(stats);
  }

  get(): string {
    this.value ??= fingerprintOf(this.query(this.composerId));
    return this.value;
  }
}
