/**
 * The optional `composerWorkspaceInventory` (schemaVersion 1) of a v1 manifest: one entry per
 * archived workspace DB, so a workspace-scoped read can be planned without opening other DBs.
 */
import { BackupManifestInvalid } from './backup-errors.js';
import { isStrictlyOrdered } from './code-point-order.js';

export interface InventoryWorkspace {
  workspaceId: string;
  workspacePath: string | null;
  sessionIds: string[];
  globalCounterpartSessionIds: string[];
  linkedGlobalSessionIds: string[];
}

export interface WorkspaceInventory {
  workspaces: InventoryWorkspace[];
}

const invalid = (reason: string): BackupManifestInvalid => new BackupManifestInvalid(`inventory-${reason}`);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idList(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((id) => typeof id === 'string' && id.length > 0))
    throw invalid('session-ids');
  if (!isStrictlyOrdered(value)) throw invalid('session-ids-order');
  return value;
}

function parseWorkspace(value: unknown): InventoryWorkspace {
  if (!isRecord(value) || typeof value.workspaceId !== 'string' || value.workspaceId.length === 0)
    throw invalid('workspace');
  const path = value.workspacePath;
  if (path !== null && (typeof path !== 'string' || path.length === 0)) throw invalid('workspace-path');
  const workspace: InventoryWorkspace = {
    workspaceId: value.workspaceId,
    workspacePath: path,
    sessionIds: idList(value.sessionIds),
    globalCounterpartSessionIds: idList(value.globalCounterpartSessionIds),
    linkedGlobalSessionIds: idList(value.linkedGlobalSessionIds),
  };
  const materialized = new Set(workspace.sessionIds);
  if (!workspace.globalCounterpartSessionIds.every((id) => materialized.has(id)))
    throw invalid('counterparts-not-subset');
  if (workspace.linkedGlobalSessionIds.some((id) => materialized.has(id))) throw invalid('linked-overlap');
  return workspace;
}

/**
 * Validates the inventory against the manifest's workspace DB IDs (already code-point sorted) and
 * whether a global DB is archived.
 */
export function parseInventory(
  value: unknown,
  workspaceDbIds: readonly string[],
  hasGlobalDb: boolean,
): WorkspaceInventory {
  if (!isRecord(value) || value.schemaVersion !== 1) throw invalid('schema-version');
  if (!Array.isArray(value.workspaces)) throw invalid('workspaces');
  const workspaces = value.workspaces.map(parseWorkspace);
  const ids = workspaces.map((w) => w.workspaceId);
  if (!isStrictlyOrdered(ids)) throw invalid('workspace-order');
  if (ids.length !== workspaceDbIds.length || ids.some((id, i) => id !== workspaceDbIds[i]))
    throw invalid('workspace-set');
  const globalIds = workspaces.some(
    (w) => w.globalCounterpartSessionIds.length > 0 || w.linkedGlobalSessionIds.length > 0,
  );
  if (globalIds && !hasGlobalDb) throw invalid('global-ids-without-global-db');
  return { workspaces };
}
