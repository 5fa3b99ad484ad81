/**
 * Workspace attribution evidence of global sessions, from metadata only: the `composerData` stamp
 * (`workspaceIdentifier.id`/`.uri`, `workspaceUri`) projected inside SQLite, and the Cursor 3.x global
 * `composer.composerHeaders` index.
 */
import type Database from 'better-sqlite3';
import { normalizeWorkspacePath } from '../../shared/normalize-workspace-path.js';
import type { SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { HydrationBudget } from '../sqlite/keyset-pager.js';
import { hasTable } from '../sqlite/sqlite-snapshot.js';
import { COMPOSER_DATA_PREFIX } from './bubble-key-owners.js';
import { COMPOSER_HEADERS_KEY, jsonIndexElements } from './item-json.js';

/** A stamp names a workspace by its storage directory ID, by a path, or both. */
export interface WorkspaceStamp {
  workspaceId: string | null;
  path: string | null;
}

const STAMP_FIELDS = {
  workspaceId: '$.workspaceIdentifier.id',
  fsPath: '$.workspaceIdentifier.uri.fsPath',
  path: '$.workspaceIdentifier.uri.path',
  external: '$.workspaceIdentifier.uri.external',
  workspaceUri: '$.workspaceUri',
} as const;

/** Distinct stamped locations remembered per global DB; sessions share a few workspaces. */
const NORMALIZED_KEPT = 1024;

/** `normalize` maps a stamped location to its normalized path (normalizeWorkspacePath, maybe cached). */
function toStamp(
  values: Record<string, unknown>,
  normalize: (raw: string) => string | null = normalizeWorkspacePath,
): WorkspaceStamp | null {
  const text = (value: unknown): string | null =>
    typeof value === 'string' && value.length > 0 ? value : null;
  const workspaceId = text(values.workspaceId);
  const raw = text(values.fsPath) ?? text(values.external) ?? text(values.path) ?? text(values.workspaceUri);
  const path = raw === null ? null : normalize(raw);
  return workspaceId === null && path === null ? null : { workspaceId, path };
}

export class GlobalAttribution {
  private readonly headers = new Map<string, WorkspaceStamp>();
  private readonly stampStmt: Database.Statement | null;
  /** Normalizing is pure: each session of a workspace stamps the same location. */
  private readonly normalized = new Map<string, string | null>();
  /** The bound the `composerHeaders` index crossed, or null when it was read (or absent). */
  unreadHeaders: SourceLimitExceeded | null = null;

  constructor(
    db: Database.Database,
    private readonly limits: ReadLimits,
    private readonly budget: HydrationBudget,
  ) {
    // One lookup: SQLite parses the value once per statement, and projects only from valid JSON
    // within the value bound (`octet_length` reads no value bytes, so a larger value stays unread).
    const parsable = `octet_length(value) <= ${limits.sqliteValueBytes} AND json_valid(CAST(value AS TEXT))`;
    const columns = Object.entries(STAMP_FIELDS)
      .map(
        ([name, path]) =>
          `CASE WHEN ${parsable} THEN json_extract(CAST(value AS TEXT), '${path}') END AS ${name}`,
      )
      .join(', ');
    this.stampStmt = hasTable(db, 'cursorDiskKV')
      ? db.prepare(
          `SELECT CASE WHEN ${parsable} THEN 1 ELSE 0 END AS ok, ${columns}
             FROM cursorDiskKV WHERE key = ? AND CAST(key AS BLOB) = CAST(? AS BLOB)`,
        )
      : null;
    if (hasTable(db, 'ItemTable')) this.readHeaders(db);
  }

  /** An index past a read bound is not used at all: its sessions keep their other evidence. */
  private readHeaders(db: Database.Database): void {
    const fields = { composerId: '$.composerId', ...STAMP_FIELDS };
    const { elements, overBound } = jsonIndexElements(
      db,
      'ItemTable',
      COMPOSER_HEADERS_KEY,
      '$.allComposers',
      fields,
      this.limits,
      this.budget,
    );
    this.unreadHeaders = overBound;
    for (const { values } of elements) {
      const id = values.composerId;
      const stamp = toStamp(values);
      if (typeof id === 'string' && stamp !== null && !this.headers.has(id)) this.headers.set(id, stamp);
    }
  }

  /**
   * The `composerData` stamp of a session, or null when absent, unreadable, not JSON or past the
   * value bound: the catalog lists the session either way, and its own read reports the bound.
   */
  documentStamp(composerId: string): WorkspaceStamp | null {
    if (this.stampStmt === null) return null;
    const key = `${COMPOSER_DATA_PREFIX}${composerId}`;
    const row = this.stampStmt.get(key, key) as ({ ok: number } & Record<string, unknown>) | undefined;
    if (row?.ok !== 1) return null;
    this.budget.chargeRows(1);
    return toStamp(row, (raw) => this.normalize(raw));
  }

  private normalize(raw: string): string | null {
    const known = this.normalized.get(raw);
    if (known !== undefined) return known;
    const path = normalizeWorkspacePath(raw);
    if (this.normalized.size < NORMALIZED_KEPT) this.normalized.set(raw, path);
    return path;
  }

  headerStamp(composerId: string): WorkspaceStamp | null {
    return this.headers.get(composerId) ?? null;
  }
}
