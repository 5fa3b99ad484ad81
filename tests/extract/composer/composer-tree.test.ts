import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeComposer } from '../../../fixtures/composer/composer-session.js';
import { StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import { headIndex, writeWorkspace } from '../../../fixtures/composer/workspace-db-builder.js';
import { breakOverflowChain } from '../../../fixtures/hostile/broken-overflow-chain.js';
import { queryRows } from '../../helpers/query-warehouse.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';

const ID = 'c5000000-0000-4000-8000-000000000001';
const MARKER = 'index-overflow-marker-';

describe('the workspace tree', () => {
  it('a workspace DB whose index meets a corrupt page is reported unreadable; the global DB still carries its sessions', async () => {
    const userDir = join(tempDir('etl-tree-corrupt-'), 'User');
    const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
    writeComposer(db, {
      id: ID,
      name: 'tree',
      createdAt: 1_700_000_000_000,
      bubbles: [{ id: `${ID}-1`, role: 'user', text: 'question' }],
    });
    db.close();
    const dir = writeWorkspace(userDir, {
      storageId: 'ws-corrupt',
      workspaceJson: { folder: 'file:///work/tree' },
      composerIndex: headIndex([{ id: ID, name: MARKER.repeat(1_000), createdAt: 1_700_000_000_000 }]),
    });
    breakOverflowChain(join(dir, 'state.vscdb'), MARKER);
    const warehouse = join(userDir, '..', 'w.duckdb');
    const result = runCli(['run', '--json', '--cursor-user-dir', userDir, '--target', `duckdb:${warehouse}`]);
    expect(result.code).toBe(0);
    const unreadable = JSON.parse(result.stdout).diagnostics.filter(
      (d: { code: string }) => d.code === 'SOURCE_UNREADABLE',
    );
    expect(unreadable).toMatchObject([{ details: { database: 'workspace', outcome: 'partial' } }]);
    expect(await queryRows(warehouse, 'select session_id, fidelity from sessions')).toEqual([
      { session_id: ID, fidelity: 'complete' },
    ]);
  });
});
