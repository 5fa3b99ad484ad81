import { describe, expect, it } from 'vitest';
import type { BackupManifest, ManifestFile } from '../../../src/extract/backup/backup-manifest.js';
import { planRead } from '../../../src/extract/backup/scope-plan.js';
import type { InventoryWorkspace } from '../../../src/extract/backup/workspace-inventory.js';
import type { EtlError } from '../../../src/shared/errors.js';

const file = (type: ManifestFile['type'], workspaceId: string | null): ManifestFile => ({
  path:
    workspaceId === null
      ? 'globalStorage/state.vscdb'
      : `workspaceStorage/${workspaceId}/${type === 'workspace-db' ? 'state.vscdb' : 'workspace.json'}`,
  size: 1,
  sha256: '0'.repeat(64),
  type,
  workspaceId,
});

const inv = (
  workspaceId: string,
  workspacePath: string | null,
  sessionIds: string[],
): InventoryWorkspace => ({
  workspaceId,
  workspacePath,
  sessionIds,
  globalCounterpartSessionIds: [],
  linkedGlobalSessionIds: [],
});

const FILES = [
  file('global-db', null),
  file('workspace-db', 'w1'),
  file('workspace-json', 'w1'),
  file('workspace-db', 'w2'),
  file('workspace-db', 'w3'),
];
const withInventory: BackupManifest = {
  files: FILES,
  inventory: {
    workspaces: [
      inv('w1', '/home/dev/api', ['s1', 's2']),
      inv('w2', '/home/dev/web', ['s2']),
      inv('w3', '/srv/other/web', ['s9']),
    ],
  },
};
const legacy: BackupManifest = { files: FILES, inventory: null };
const ids = (plan: ReturnType<typeof planRead>) => plan.databases.map((f) => f.workspaceId);

describe('backup read planning', () => {
  it('an unscoped read extracts every database and never a workspace.json on its own', () => {
    expect(ids(planRead(withInventory, null, false))).toEqual([null, 'w1', 'w2', 'w3']);
  });

  it('a scoped read opens only that workspace database; the global DB is omitted-by-scope', () => {
    const plan = planRead(withInventory, '/home/dev/api', false);
    expect(ids(plan)).toEqual(['w1']);
    expect(plan.globalOmittedByScope).toBe(true);
  });

  it('the global DB stays closed even with the cross-workspace opt-in, which adds only DBs declaring a selected UUID', () => {
    expect(ids(planRead(withInventory, '/home/dev/api', true))).toEqual(['w1', 'w2']);
  });

  it('a unique complete-component suffix matches; several are WORKSPACE_AMBIGUOUS; none is empty', () => {
    expect(ids(planRead(withInventory, 'dev/api', false))).toEqual(['w1']);
    expect(() => planRead(withInventory, 'web', false)).toThrow(
      expect.objectContaining({ code: 'WORKSPACE_AMBIGUOUS' }),
    );
    expect(ids(planRead(withInventory, 'pi', false))).toEqual([]);
  });

  it('legacy multi-workspace archive without inventory: BACKUP_WORKSPACE_SCOPE_METADATA_REQUIRED before extracting anything', () => {
    let error: EtlError | null = null;
    try {
      planRead(legacy, '/home/dev/api', false);
    } catch (e) {
      error = e as EtlError;
    }
    expect(error?.code).toBe('BACKUP_WORKSPACE_SCOPE_METADATA_REQUIRED');
    expect(error?.exitCode).toBe(2);
  });

  it('a legacy single-workspace archive stays scoped-readable through its workspace database', () => {
    const single: BackupManifest = {
      files: [file('global-db', null), file('workspace-db', 'w1')],
      inventory: null,
    };
    const plan = planRead(single, '/anything', false);
    expect(ids(plan)).toEqual(['w1']);
    expect(plan.globalOmittedByScope).toBe(true);
  });
});
