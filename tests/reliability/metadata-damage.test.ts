/**
 * Property family of archive trust: session metadata that decodes but is damaged (`workspace.json`
 * cut or wrong-typed, Store `meta.json` with an unknown `schemaVersion`, wrong-typed fields or a
 * cut) applied to already archived sessions, then `--since-last` and a full run.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeComposer } from '../../fixtures/composer/composer-session.js';
import { StateDbBuilder } from '../../fixtures/composer/state-db-builder.js';
import { headIndex, writeWorkspace } from '../../fixtures/composer/workspace-db-builder.js';
import { storeDbDir, storeMeta, writeStoreSession } from '../../fixtures/hostile/baseline-sources.js';
import { metaJsonDamages, workspaceJsonDamages } from '../../fixtures/hostile/metadata-damage.js';
import { archivedSessions, archiveRun, verifyProblems } from '../helpers/archive-run.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';
import { sourceSnapshot } from './harness/source-snapshot.js';

const FOLDER = 'file:///home/dev/proj';
const ARCHIVED = 'c0111150-0000-4000-8000-0000000000a1';
const LATER = 'c0111150-0000-4000-8000-0000000000a2';
const STORE_ARCHIVED = 'c0111150-0000-4000-8000-0000000000b1';
const STORE_LATER = 'c0111150-0000-4000-8000-0000000000b2';

const WORKSPACE_DAMAGES = workspaceJsonDamages(FOLDER);
const META_DAMAGES = metaJsonDamages(storeMeta());
const CASES = Math.max(WORKSPACE_DAMAGES.length, META_DAMAGES.length);

function writeGlobal(userDir: string, id: string): void {
  const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
  writeComposer(db, {
    id,
    name: `Title ${id}`,
    bubbles: [
      { id: 'b1', role: 'user', text: `question of ${id}` },
      { id: 'b2', role: 'assistant', text: `answer of ${id}` },
    ],
  });
  db.close();
}

async function reasonCodes(warehouse: string): Promise<Map<string, string[]>> {
  const rows = await queryRows(warehouse, 'SELECT session_id, reason_codes FROM sessions');
  return new Map(rows.map((r) => [String(r.session_id), JSON.parse(String(r.reason_codes)) as string[]]));
}

describe('damaged metadata is unknown, never "none": the view is partial and never replaces the archive', {
  timeout: 300_000,
}, () => {
  for (let i = 0; i < CASES; i++) {
    const ws = WORKSPACE_DAMAGES[i % WORKSPACE_DAMAGES.length]!;
    const meta = META_DAMAGES[i % META_DAMAGES.length]!;
    it(`workspace.json ${ws.name}; meta.json ${meta.name}`, async () => {
      const root = tempDir('etl-meta-damage-');
      const sources = join(root, 'sources');
      const userDir = join(sources, 'User');
      const storeRoot = join(sources, 'store');
      const workspaceDir = writeWorkspace(userDir, {
        storageId: 'ws1',
        workspaceJson: { folder: FOLDER },
        composerIndex: headIndex([{ id: ARCHIVED }]),
      });
      writeGlobal(userDir, ARCHIVED);
      writeStoreSession(storeRoot, STORE_ARCHIVED);
      const args = ['--cursor-user-dir', userDir, '--cursor-store-root', storeRoot];
      const warehouse = join(root, 'w.duckdb');
      const first = await archiveRun(warehouse, args);
      expect({ code: first.code, codes: first.codes }).toEqual({ code: 0, codes: [] });
      const before = await archivedSessions(warehouse);
      expect(before.get(ARCHIVED)).toMatchObject({ fidelity: 'complete', workspace: '/home/dev/proj' });
      expect(before.get(STORE_ARCHIVED)?.fidelity).toBe('complete');

      ws.apply(join(workspaceDir, 'workspace.json'));
      meta.apply(join(storeDbDir(storeRoot, STORE_ARCHIVED), 'meta.json'));
      writeWorkspace(userDir, {
        storageId: 'ws1',
        workspaceJson: 'missing',
        composerIndex: headIndex([{ id: ARCHIVED }, { id: LATER }]),
      });
      writeGlobal(userDir, LATER);
      meta.apply(join(writeStoreSession(storeRoot, STORE_LATER), 'meta.json'));

      for (const extra of [['--since-last'], []]) {
        const untouched = sourceSnapshot(sources);
        const run = await archiveRun(warehouse, args, extra);
        expect({ extra, code: run.code, codes: run.codes }).toEqual({
          extra,
          code: 0,
          codes: expect.arrayContaining(['WORKSPACE_JSON_INVALID', 'STORE_META_JSON_INVALID']),
        });
        expect(sourceSnapshot(sources)).toEqual(untouched);
        const after = await archivedSessions(warehouse);
        expect(after.get(ARCHIVED)).toEqual(before.get(ARCHIVED));
        expect(after.get(STORE_ARCHIVED)).toEqual(before.get(STORE_ARCHIVED));
        const reasons = await reasonCodes(warehouse);
        expect(after.get(LATER)).toMatchObject({ fidelity: 'partial', workspace: null });
        expect(reasons.get(LATER)).toContain('workspace-unknown');
        // A Store view whose cwd could not be read has an unknown workspace; a readable cwd stays.
        const storeLater = after.get(STORE_LATER)!;
        expect(storeLater.fidelity).toBe('partial');
        expect(reasons.get(STORE_LATER)?.includes('workspace-unknown')).toBe(storeLater.workspace === null);
        expect(await verifyProblems(warehouse)).toEqual([]);
      }
    });
  }
});
