/**
 * The workspace side of a Cursor `User` tree, read once per run from metadata: each workspace DB's
 * normalized path (`workspace.json`) and chat index, and which workspaces name each composer ID.
 */
import { basename, dirname, join } from 'node:path';
import type { DiscoveredSource, ReadContext } from '../source-adapter.js';
import { HydrationBudget } from '../sqlite/keyset-pager.js';
import type { SqliteSnapshot } from '../sqlite/sqlite-snapshot.js';
import { unlessUnreadable } from '../sqlite/sqlite-snapshot.js';
import type { WorkspaceStamp } from './global-attribution.js';
import { reportUnreadableDatabase } from './unreadable-database.js';
import { readWorkspaceIndex, type WorkspaceIndex } from './workspace-index.js';
import { readWorkspaceJson } from './workspace-json.js';

export interface WorkspaceInfo {
  source: DiscoveredSource;
  /** The `workspaceStorage/<id>` directory name (what `workspaceIdentifier.id` stamps refer to). */
  storageId: string;
  workspacePath: string | null;
  index: WorkspaceIndex;
}

export class ComposerTree {
  readonly workspaces = new Map<string, WorkspaceInfo>();
  private readonly byStorageId = new Map<string, WorkspaceInfo>();
  private readonly memberships = new Map<string, Set<string>>();

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
      const index: WorkspaceIndex =
        opened === null
          ? { entries: [], pointerIds: new Set() }
          : readWorkspaceIndex(opened.db, ctx.limits, new HydrationBudget(ctx.limits));
      tree.add({
        source,
        storageId: basename(dir),
        workspacePath: readWorkspaceJson(join(dir, 'workspace.json')),
        index,
      });
    }
    return tree;
  }

  private add(info: WorkspaceInfo): void {
    this.workspaces.set(info.source.sourceKey, info);
    this.byStorageId.set(info.storageId, info);
    if (info.workspacePath === null) return;
    const ids = [...info.index.entries.map((entry) => entry.composerId), ...info.index.pointerIds];
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

  /**
   * Attribution of a global session: its own stamp, else the global header stamp, else the
   * code-point-smallest workspace whose index names it; memberships are all of them.
   */
  attribute(
    composerId: string,
    documentStamp: WorkspaceStamp | null,
    headerStamp: WorkspaceStamp | null,
  ): { workspacePath: string | null; memberships: string[] } {
    const stamped = this.stampPath(documentStamp) ?? this.stampPath(headerStamp);
    const all = new Set(this.memberships.get(composerId) ?? []);
    for (const path of [this.stampPath(documentStamp), this.stampPath(headerStamp)])
      if (path !== null) all.add(path);
    const memberships = [...all].sort();
    return { workspacePath: stamped ?? memberships[0] ?? null, memberships };
  }
}
