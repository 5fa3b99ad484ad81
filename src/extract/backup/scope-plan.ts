/**
 * Which archived databases a read extracts: unscoped, every one; under a workspace filter, that
 * workspace's database only (never the global one, which holds unrelated sessions). A legacy
 * archive without inventory is readable under a filter only with a single workspace database.
 */
import { BackupScopeMetadataRequired } from './backup-errors.js';
import type { BackupManifest, ManifestFile } from './backup-manifest.js';
import { compareCodePoints } from './code-point-order.js';
import { matchInventoryPath } from './inventory-match.js';

export interface ReadPlan {
  /** Databases to extract, in manifest order. */
  databases: ManifestFile[];
  /** True when a global database exists but the workspace filter keeps it closed. */
  globalOmittedByScope: boolean;
  /** Selected sessions the inventory says also live in the closed global DB (code-point order). */
  omittedGlobalSessionIds: string[];
}

function workspaceDatabases(manifest: BackupManifest, ids: ReadonlySet<string>): ManifestFile[] {
  return manifest.files.filter((f) => f.type === 'workspace-db' && ids.has(f.workspaceId!));
}

export function planRead(
  manifest: BackupManifest,
  requestedWorkspace: string | null,
  includeCrossWorkspaceSources: boolean,
): ReadPlan {
  const databases = manifest.files.filter((f) => f.type !== 'workspace-json');
  if (requestedWorkspace === null)
    return { databases, globalOmittedByScope: false, omittedGlobalSessionIds: [] };
  const globalOmittedByScope = databases.some((f) => f.type === 'global-db');
  const inventory = manifest.inventory;
  if (inventory === null) {
    const workspaces = databases.filter((f) => f.type === 'workspace-db');
    if (workspaces.length > 1) throw new BackupScopeMetadataRequired(workspaces.length);
    return { databases: workspaces, globalOmittedByScope, omittedGlobalSessionIds: [] };
  }
  const path = matchInventoryPath(
    requestedWorkspace,
    inventory.workspaces.map((w) => w.workspacePath),
  );
  const selected = inventory.workspaces.filter((w) => path !== null && w.workspacePath === path);
  const ids = new Set(selected.map((w) => w.workspaceId));
  if (includeCrossWorkspaceSources) {
    // The opt-in opens another workspace DB only when its inventory declares an already selected UUID.
    const selectedSessions = new Set(selected.flatMap((w) => w.sessionIds));
    for (const w of inventory.workspaces)
      if (w.sessionIds.some((id) => selectedSessions.has(id))) ids.add(w.workspaceId);
  }
  const counterparts = globalOmittedByScope
    ? inventory.workspaces.filter((w) => ids.has(w.workspaceId)).flatMap((w) => w.globalCounterpartSessionIds)
    : [];
  return {
    databases: workspaceDatabases(manifest, ids),
    globalOmittedByScope,
    omittedGlobalSessionIds: [...new Set(counterparts)].sort(compareCodePoints),
  };
}

/** The `workspace.json` declared next to a workspace database, if any. */
export function workspaceMetadataFor(manifest: BackupManifest, database: ManifestFile): ManifestFile | null {
  if (database.type !== 'workspace-db') return null;
  return (
    manifest.files.find((f) => f.type === 'workspace-json' && f.workspaceId === database.workspaceId) ?? null
  );
}
