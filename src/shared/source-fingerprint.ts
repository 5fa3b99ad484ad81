/** What every stage knows about a physical source: its kind and its cheap change evidence. */
export type SourceKind =
  | 'composer-global-db'
  | 'composer-workspace-db'
  | 'store-session-dir'
  | 'store-transcript'
  | 'store-subagent-transcript'
  | 'store-legacy-transcript'
  | 'sdk-agent-index'
  | 'ai-code-tracking-db'
  | 'capture-file'
  | 'backup-archive'
  | 'merge-input';

/** A sidecar's stamp (SQLite `-wal`): the same evidence as its source's. */
export interface SidecarStamp {
  size: number;
  mtimeMs: number;
  ino: number;
  /** Nanosecond change time: a copy with preserved size and mtime still moves it. */
  ctimeNs?: string;
}

/** Cheap change evidence for a physical source; compared by the sync ledger. */
export interface SourceFingerprint {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /**
   * Nanosecond modification and change times. The change time cannot be set by a copy that
   * preserves size and mtime, so a file replaced that way still differs.
   */
  mtimeNs?: string;
  ctimeNs?: string;
  /** Sidecars that change with the source (SQLite `-wal`), same fields, or null when absent. */
  sidecars?: Record<string, SidecarStamp | null>;
  /** Optional content or prefix hash where it is cheap. */
  contentHash?: string;
  /**
   * Digest of what files beside the source contribute to its sessions (`workspace.json`,
   * `meta.json`): what a full run would derive from them, so an edit there is a change here.
   */
  metadataDigest?: string;
}
