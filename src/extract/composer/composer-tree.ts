/**
 * The workspace side of a Cursor `User` tree, read once per run from metadata: each workspace DB's
 * normalized path (`workspace.json`) and chat index, and which workspaces name each composer ID.
 */
import { basename, dirname, join } from 'node:path';
import { SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { DiscoveredSource, ReadContext } from '../source-adapter.js';
import { HydrationBudget } from '../sqlite/keyset-pager.js';
import type { SqliteSnapshot } from '../sqlite/sqlite-snapshot.js';
import { isSqliteError, unlessUnreadable } from '../sqlite/sqlite-snapshot.js';
import { SourceEncodingInvalid } from '../text/strict-utf8.js';
import type { WorkspaceStamp } from './global-attribution.js';
import { reportUnreadableDatabase, reportUnreadIndex } from './unreadable-database.js';
import { readWorkspaceIndex, type WorkspaceIndex } from './workspace-index.js';
import { readWorkspaceJson } from './workspace-json.js';

export interface WorkspaceInfo {
  source: DiscoveredSource;
  /** The `workspaceStorage/<id>` directory name (what `workspaceIdentifier.id` stamps refer to). */
  storageId: string;
  workspacePath: string | null;
  /** Why `workspace.json` is damaged (its path is then unknown), or null. */
  workspaceProblem: string | null;
  index: WorkspaceIndex;
}

/** A session's workspace: `problem` set means unknown (damaged evidence), never "no workspace". */
export interface WorkspaceAttribution {
  workspacePath: string | null;
  memberships: string[];
  workspaceProblem: string | null;
}

export class ComposerTree {
  readonly workspaces = new Map<string, WorkspaceInfo>();
  private readonly byStorageId = new Map<string, WorkspaceInfo>();
  private readonly memberships = new Map<string, Set<string>>();
  /** Composer IDs named by a workspace whose `workspace.json` is damaged, with its problem. */
  private readonly unknownMemberships = new Map<string, string>();

  static async read(
    sources: readonly DiscoveredSource[],
    ctx: ReadContext,
    snapshot: (locator: string) => Promise<SqliteSnapshot>,
  ): Promise<ComposerTree> {
    const tree = new ComposerTree();
    for (const source of sources) {
      if (source.kind !== 'composer-workspace-db') continue;
      const dir = dirname(source.locator);
      // An unopenable workspace DB has no readable index; the global DB still carries its sessions.
      const opened = await snapshot(source.locator).catch(unlessUnreadable);
      if (opened === null) reportUnreadableDatabase(ctx, 'workspace', source.sourceKey);
      let index: WorkspaceIndex = { entries: [], pointerIds: new Set() };
      try {
        if (opened !== null)
          index = readWorkspaceIndex(opened.db, ctx.limits, new HydrationBudget(ctx.limits));
      } catch (error) {
        // A page SQLite refuses (corrupt) leaves the DB as unreadable as one that does not open.
        if (isSqliteError(error)) reportUnreadableDatabase(ctx, 'workspace', source.sourceKey);
        else if (error instanceof SourceLimitExceeded || error instanceof SourceEncodingInvalid)
          reportUnreadIndex(ctx, source.sourceKey, error);
        else throw error;
      }
      const workspace = readWorkspaceJson(join(dir, 'workspace.json'));
      tree.add({
        source,
        storageId: basename(dir),
        workspacePath: workspace.path,
        workspaceProblem: workspace.problem,
        index,
      });
    }
    return tree;
  }

  private add(info: WorkspaceInfo): void {
    this.workspaces.set(info.source.sourceKey, info);
    this.byStorageId.set(info.storageId, info);
    const ids = [...info.index.entries.map((entry) => entry.composerId), ...info.index.pointerIds];
    if (info.workspaceProblem !== null)
      for (const id of ids)
        if (!this.unknownMemberships.has(id)) this.unknownMemberships.set(id, info.workspaceProblem);
    if (info.workspacePath === null) return;
    for (const id of ids) {
      let paths = this.memberships.get(id);
      if (!paths) {
        paths = new Set();
        this.memberships.set(id, paths);
      }
      paths.add(info.workspacePath);
    }
  }

  stampPath(stamp: WorkspaceStamp | null): string | null {
    if (stamp === null) return null;
    if (stamp.path !== null) return stamp.path;
    return stamp.workspaceId === null
      ? null
      : (this.byStorageId.get(stamp.workspaceId)?.workspacePath ?? null);
  }

  private stampProblem(stamp: WorkspaceStamp | null): string | null {
    if (stamp === null || stamp.path !== null || stamp.workspaceId === null) return null;
    return this.byStorageId.get(stamp.workspaceId)?.workspaceProblem ?? null;
  }

  /**
   * Attribution of a global session: its own stamp, else the header stamp, else the smallest
   * workspace whose index names it; memberships are all of them. A damaged `workspace.json` met on
   * the way, before any stamped path, leaves the workspace unknown.
   */
  attribute(
    composerId: string,
    documentStamp: WorkspaceStamp | null,
    headerStamp: WorkspaceStamp | null,
  ): WorkspaceAttribution {
    const all = new Set(this.memberships.get(composerId) ?? []);
    for (const path of [this.stampPath(documentStamp), this.stampPath(headerStamp)])
      if (path !== null) all.add(path);
    const memberships = [...all].sort();
    // The first evidence in precedence order decides: a path, or damage that hides one.
    for (const stamp of [documentStamp, headerStamp]) {
      const path = this.stampPath(stamp);
      if (path !== null) return { workspacePath: path, memberships, workspaceProblem: null };
      const problem = this.stampProblem(stamp);
      if (problem !== null) return { workspacePath: null, memberships, workspaceProblem: problem };
    }
    const problem = this.unknownMemberships.get(composerId) ?? null;
    if (problem !== null) return { workspacePath: null, memberships, workspaceProblem: problem };
    return { workspacePath: memberships[0] ?? null, memberships, workspaceProblem: null };
  }
}
