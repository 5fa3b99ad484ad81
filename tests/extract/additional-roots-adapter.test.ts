import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildInstallTree,
  CANARY_KEY,
  type InstallTree,
  SDK_AGENT_ID,
  TRACKED_SESSION_ID,
} from '../../fixtures/data-roots/install-tree.js';
import { SAMPLE_COMPOSERS } from '../../fixtures/sample/sample-corpus.js';
import { DEFAULT_READ_LIMITS } from '../../src/extract/limits/read-limits.js';
import type { AdditionalRoot } from '../../src/extract/source-adapter.js';
import { runQuery } from '../../src/load/duckdb/read-only-query.js';
import { targetOpener } from '../../src/load/open-target.js';
import { withReadOnlyTarget } from '../../src/load/read-only-target.js';
import { runPipeline } from '../../src/sync/run-pipeline.js';
import type { RunSummary } from '../../src/sync/run-state.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';

async function load(
  tree: InstallTree,
  additionalRoots: AdditionalRoot[],
  warehouse: string,
  kind: 'duckdb' | 'parquet' = 'duckdb',
  sinceLast = false,
): Promise<RunSummary> {
  const target = await (await targetOpener({ kind, path: warehouse }))();
  try {
    return await runPipeline(
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
        sinceLast,
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
  let dataset: string;
  let roots: AdditionalRoot[];
  beforeAll(async () => {
    const dir = tempDir('additional-roots-');
    tree = buildInstallTree(dir);
    single = join(dir, 'single.duckdb');
    several = join(dir, 'several.duckdb');
    dataset = join(dir, 'several-parquet');
    await load(tree, [], single);
    roots = [
      { kind: 'ide-user', path: tree.insidersUserDir },
      { kind: 'agent-home', path: tree.windowsAgentHome },
      { kind: 'remote-server', path: tree.remoteServerUserDir },
    ];
    await load(tree, roots, several);
    await load(tree, roots, dataset, 'parquet');
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

  it("reads the extra agent home's SDK store and tracking DB as replicas of the same sessions", async () => {
    const agent = `SELECT session_id, title, message_count, fidelity FROM sessions WHERE session_id = '${SDK_AGENT_ID}'`;
    expect(await queryRows(single, agent)).toHaveLength(1);
    expect(await queryRows(several, agent)).toEqual(await queryRows(single, agent));
    const turns = `SELECT message_id, content FROM messages WHERE session_id = '${SDK_AGENT_ID}' ORDER BY ordinal`;
    expect(await queryRows(several, turns)).toEqual(await queryRows(single, turns));
    const states = async (id: string, representation: string) =>
      (
        await queryRows(
          several,
          `SELECT state, occurrence_ref FROM source_instances
           WHERE session_id = '${id}' AND representation = '${representation}' ORDER BY state`,
        )
      ).map((i) => i.state);
    expect(await states(SDK_AGENT_ID, 'sdk-agent-store')).toEqual(['contributed', 'equivalent-replica']);
    expect(await states(TRACKED_SESSION_ID, 'ai-code-tracking')).toEqual([
      'contributed',
      'equivalent-replica',
    ]);
    // Each carrier keeps its own source key: one occurrence per agent home.
    const refs = await queryRows(
      several,
      `SELECT DISTINCT occurrence_ref FROM source_instances WHERE session_id = '${SDK_AGENT_ID}'
       AND representation = 'sdk-agent-store'`,
    );
    expect(refs).toHaveLength(2);
    const tracked = `SELECT extensions FROM sessions WHERE session_id = '${TRACKED_SESSION_ID}'`;
    expect(await queryRows(several, tracked)).toEqual(await queryRows(single, tracked));
  });

  it('reads no payload in a --since-last run over unchanged roots', async () => {
    const summary = await load(tree, roots, several, 'duckdb', true);
    expect(summary.payloadBytesRead).toBe(0);
    expect(summary.counts.sessionsMarkedAbsent).toBe(0);
  });

  it('loads the same sessions into a Parquet dataset', async () => {
    const sql = 'SELECT session_id, title, message_count, fidelity FROM sessions ORDER BY session_id';
    const instances =
      "SELECT session_id, representation, state FROM source_instances WHERE representation IN ('sdk-agent-store', 'ai-code-tracking') ORDER BY ALL";
    const parquetInstances = await withReadOnlyTarget(
      { kind: 'parquet', path: dataset },
      async (connection) => (await runQuery(connection, instances)).rows,
    );
    expect(parquetInstances).toHaveLength(4);
    expect(parquetInstances).toEqual(await queryRows(several, instances));
    const parquet = await withReadOnlyTarget(
      { kind: 'parquet', path: dataset },
      async (connection) => (await runQuery(connection, sql)).rows,
    );
    expect(parquet).toEqual(await queryRows(several, sql));
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
