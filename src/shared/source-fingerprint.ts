/** What every stage knows about a physical source: its kind and its cheap change evidence. */
export type SourceKind =
  | 'composer-global-db'
  | 'composer-workspace-db'
  | 'store-session-dir'
  | 'store-transcript'
  | 'store-subagent-transcript'
  | 'store-legacy-transcript'
  | 'capture-file'
  | 'backup-archive';

/** Cheap change evidence for a physical source; compared by the sync ledger. */
export interface SourceFingerprint {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /** Sidecars that change with the source (SQLite `-wal`), same fields, or null when absent. */
  sidecars?: Record<string, { size: number; mtimeMs: number; ino: number } | null>;
  /** Optional content or prefix hash where it is cheap. */
  contentHash?: string;
}
