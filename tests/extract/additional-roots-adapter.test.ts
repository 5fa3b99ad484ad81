import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildInstallTree, CANARY_KEY, type InstallTree } from '../../fixtures/data-roots/install-tree.js';
import { SAMPLE_COMPOSERS } from '../../fixtures/sample/sample-corpus.js';
import { DEFAULT_READ_LIMITS } from '../../src/extract/limits/read-limits.js';
import type { AdditionalRoot } from '../../src/extract/source-adapter.js';
import { targetOpener } from '../../src/load/open-target.js';
import { runPipeline } from '../../src/sync/run-pipeline.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';

async function load(tree: InstallTree, additionalRoots: AdditionalRoot[], warehouse: string): Promise<void> {
  const target = await (await targetOpener({ kind: 'duckdb', path: warehouse }))();
  try {
    await runPipeline(
      {
        roots: {
          cursorUserDir: tree.windowsUserDir,
          cursorStoreRoot: tree.distroAgentHome,
          additionalRoots,
          inputs: [],
          backups: [],
          carrier: 'live',
        },
        limits: DEFAULT_READ_LIMITS,
        sinceLast: false,
        preferredSource: 'composer',
        includeCrossWorkspaceSources: false,
      },
      target,
    );
  } finally {
    await target.close();
  }
}

describe('several data roots in one run', () => {
  let tree: InstallTree;
  let single: string;
  let several: string;
  beforeAll(async () => {
    const dir = tempDir('additional-roots-');
    tree = buildInstallTree(dir);
    single = join(dir, 'single.duckdb');
    several = join(dir, 'several.duckdb');
    await load(tree, [], single);
    await load(
      tree,
      [
        { kind: 'ide-user', path: tree.insidersUserDir },
        { kind: 'agent-home', path: tree.windowsAgentHome },
        { kind: 'remote-server', path: tree.remoteServerUserDir },
      ],
      several,
    );
  }, 60_000);

  it('loads the Insiders copy as replicas of the same sessions, never as duplicates', async () => {
    // The view digest covers the contributors, so the content is compared row by row instead.
    const sessions = 'SELECT session_id, title, message_count, fidelity FROM sessions ORDER BY session_id';
    const messages = 'SELECT message_id, ordinal, role, content FROM messages ORDER BY session_id, ordinal';
    const once = await queryRows(single, sessions);
    expect(once.length).toBeGreaterThan(SAMPLE_COMPOSERS.length);
    expect(await queryRows(several, sessions)).toEqual(once);
    expect(await queryRows(several, messages)).toEqual(await queryRows(single, messages));
    const id = SAMPLE_COMPOSERS[0]!.id;
    const instances = await queryRows(
      several,
      `SELECT representation, state FROM source_instances WHERE session_id = '${id}' ORDER BY state`,
    );
    expect(instances.filter((i) => i.representation === 'composer-global').map((i) => i.state)).toEqual([
      'contributed',
      'equivalent-replica',
    ]);
  });

  it('keeps the canary encryption keys out of every table', async () => {
    const tables = await queryRows(
      several,
      "SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE'",
    );
    expect(tables.length).toBeGreaterThan(5);
    for (const { table_name: table } of tables) {
      const rows = await queryRows(several, `SELECT t::VARCHAR AS r FROM ${table} t`);
      expect(rows.map((r) => r.r).join('\n')).not.toContain(CANARY_KEY);
    }
  });
});
