/**
 * Every usage source through a real run into both targets (agentKv + Composer bubbles, SDK agent
 * store, CLI and Cloud captures, Store meta models), and older warehouses upgraded by one run.
 */
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENTKV_SESSIONS, writeAgentKvCorpus } from '../../fixtures/agentkv/agentkv-corpus.js';
import { writeCapture } from '../../fixtures/capture/write-capture.js';
import { SDK_AGENTS, writeSdkStoreCorpus } from '../../fixtures/sdk/sdk-store-corpus.js';
import { STORE_MODEL_SESSIONS, writeStoreModelSessions } from '../../fixtures/usage/store-model-sessions.js';
import { cliRunWithUsage, cloudRunWithUsage } from '../../fixtures/usage/usage-captures.js';
import { withReadOnlyWarehouse } from '../../src/load/duckdb/read-only-query.js';
import { recomputeViewDigests } from '../../src/load/duckdb/recompute-digests.js';
import { verifyWarehouse } from '../../src/load/duckdb/verify-warehouse.js';
import { WAREHOUSE_SCHEMA_VERSION } from '../../src/load/duckdb/warehouse-version.js';
import { DatasetLayout } from '../../src/load/parquet/dataset-layout.js';
import { readCurrentManifest, writeManifest } from '../../src/load/parquet/dataset-manifest.js';
import type { RunSummary } from '../../src/sync/run-state.js';
import { rowsOf } from '../helpers/query-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';
import { type InProcessSources, runInProcess } from '../helpers/sync-convergence.js';

type Kind = Parameters<typeof rowsOf>[0];

const USAGE = `SELECT session_id, message_id IS NULL AS request_level, request_id, model, mode, input_tokens,
  output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, measurement, representation
FROM usage ORDER BY session_id, usage_ordinal`;

const v5 = {
  duckdb: '',
  parquet: '',
  duckdbRun: null as RunSummary | null,
  parquetRun: null as RunSummary | null,
};

/** Both targets as a schema version 5 build left them (no Store model rows), then one --since-last run each. */
async function asVersion5(sources: InProcessSources, duckdb: string, parquet: string): Promise<void> {
  Object.assign(v5, { duckdb, parquet });
  await runInProcess(sources, duckdb, false);
  const instance = await DuckDBInstance.create(duckdb);
  const connection = await instance.connect();
  await connection.run("DELETE FROM usage WHERE representation = 'store-metadata'");
  await recomputeViewDigests(connection);
  await connection.run("UPDATE etl_meta SET value = '5' WHERE key = 'schema_version'");
  connection.closeSync();
  instance.closeSync();
  v5.duckdbRun = await runInProcess(sources, duckdb, true);
  await runInProcess(sources, parquet, false, 'parquet');
  const layout = new DatasetLayout(parquet);
  const manifest = readCurrentManifest(layout)!;
  writeManifest(layout, { ...manifest, schemaVersion: 5 });
  v5.parquetRun = await runInProcess(sources, parquet, true, 'parquet');
}

describe('usage from every source, in both targets', { timeout: 300_000 }, () => {
  let sources: InProcessSources;
  const paths: Record<Kind, string> = { duckdb: '', parquet: '' };
  let upgraded: RunSummary;
  let upgradePath: string;

  beforeAll(async () => {
    const root = tempDir('etl-usage-load-');
    const { userDir } = writeAgentKvCorpus(join(root, 'cursor'));
    const { storeRoot } = writeSdkStoreCorpus(join(root, 'sdk'));
    writeStoreModelSessions(storeRoot);
    const captures = join(root, 'captures');
    sources = {
      userDir,
      storeRoot,
      inputs: [
        writeCapture(
          captures,
          'cli.ndjson',
          cliRunWithUsage('sess-usage-e1', { inputTokens: 50, outputTokens: 5 }),
        ),
        writeCapture(
          captures,
          'cloud.jsonl',
          cloudRunWithUsage('bc-usage-e2', 'run-usage-e2', { inputTokens: 70 }),
        ),
      ],
    };
    paths.duckdb = join(root, 'w.duckdb');
    paths.parquet = join(root, 'dataset');
    for (const kind of ['duckdb', 'parquet'] as const) await runInProcess(sources, paths[kind], false, kind);
    // The same warehouse as a schema version 4 build left it: no usage table, no price table.
    upgradePath = join(root, 'v4.duckdb');
    await runInProcess(sources, upgradePath, false);
    const instance = await DuckDBInstance.create(upgradePath);
    const connection = await instance.connect();
    // Digests as the older build computed them: without usage rows.
    await connection.run('DELETE FROM usage');
    await recomputeViewDigests(connection);
    await connection.run('DROP TABLE usage');
    await connection.run('DROP TABLE model_prices');
    await connection.run("UPDATE etl_meta SET value = '4' WHERE key = 'schema_version'");
    await connection.run("DELETE FROM etl_meta WHERE key = 'schema_digest'");
    connection.closeSync();
    instance.closeSync();
    upgraded = await runInProcess(sources, upgradePath, true);
    await asVersion5(sources, join(root, 'v5.duckdb'), join(root, 'v5-dataset'));
  });

  it('SDK runs: measured per-run counts with model and request ID; hostile counts NULL', async () => {
    const rows = await rowsOf('duckdb', paths.duckdb, USAGE);
    const sdk = rows.filter((r) => r.representation === 'sdk-agent-store');
    expect(sdk.filter((r) => r.session_id === SDK_AGENTS.withTranscript)).toEqual([
      expect.objectContaining({
        request_id: 'req-0001',
        model: 'composer-2.5',
        input_tokens: 900,
        output_tokens: 120,
        cache_read_tokens: 4000,
        cache_write_tokens: 0,
      }),
      expect.objectContaining({
        request_id: 'req-0002',
        model: 'gpt-5.2',
        input_tokens: 300,
        reasoning_tokens: 20,
      }),
    ]);
    expect(sdk.filter((r) => r.session_id === SDK_AGENTS.hostile)).toEqual([
      expect.objectContaining({ input_tokens: null, output_tokens: 7, model: null }),
    ]);
    expect(sdk.some((r) => r.session_id === SDK_AGENTS.sdkOnly && r.input_tokens !== null)).toBe(false);
  });

  it('agentKv requests: per-request model rows with no invented tokens; Composer 0/0 tokenCount is no count', async () => {
    const rows = await rowsOf('duckdb', paths.duckdb, USAGE);
    const agentKv = rows.filter((r) => r.representation === 'composer-agentkv');
    expect(agentKv.length).toBeGreaterThan(0);
    // A request whose blobs name no model keeps its row (a request happened), with no model.
    expect(new Set(agentKv.map((r) => r.model))).toEqual(new Set(['claude-4.6-sonnet', 'gpt-5.2', null]));
    expect(agentKv.every((r) => r.input_tokens === null && r.output_tokens === null)).toBe(true);
    expect(agentKv.some((r) => r.session_id === AGENTKV_SESSIONS.stateLinked)).toBe(true);
    const zeros = rows.filter((r) =>
      ['input_tokens', 'output_tokens'].some(
        (c) => r[c] === 0 && String(r.representation).startsWith('composer'),
      ),
    );
    expect(zeros).toEqual([]);
  });

  it('CLI and Cloud captures: one measured row each', async () => {
    const rows = await rowsOf('duckdb', paths.duckdb, USAGE);
    expect(rows.filter((r) => r.representation === 'cli-stream')).toEqual([
      expect.objectContaining({
        session_id: 'sess-usage-e1',
        request_level: true,
        input_tokens: 50,
        output_tokens: 5,
      }),
    ]);
    expect(rows.filter((r) => r.representation === 'cloud-capture')).toEqual([
      expect.objectContaining({ session_id: 'bc-usage-e2', request_level: false, input_tokens: 70 }),
    ]);
  });

  it('Store meta lastUsedModel: one derived session-level row, no counts; "default" is a mode', async () => {
    const rows = await rowsOf('duckdb', paths.duckdb, USAGE);
    const store = rows.filter((r) => r.representation === 'store-metadata');
    const base = {
      request_level: true,
      request_id: null,
      input_tokens: null,
      output_tokens: null,
      cache_read_tokens: null,
      cache_write_tokens: null,
      reasoning_tokens: null,
      measurement: 'derived',
      representation: 'store-metadata',
    };
    expect(store).toEqual([
      { ...base, session_id: STORE_MODEL_SESSIONS.named, model: 'claude-4.6-sonnet', mode: null },
      { ...base, session_id: STORE_MODEL_SESSIONS.sentinel, model: null, mode: 'auto' },
    ]);
    expect(rows.some((r) => r.session_id === STORE_MODEL_SESSIONS.hostile)).toBe(false);
  });

  it('views keep derived rows apart: no token sum, no cost even when the model is priced', async () => {
    const instance = await DuckDBInstance.create(v5.duckdb);
    const connection = await instance.connect();
    try {
      await connection.run(
        "INSERT INTO model_prices VALUES ('claude-4.6-sonnet', TIMESTAMPTZ '2000-01-01 00:00:00Z', 'USD', 3, 15, 1, 1)",
      );
      const read = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJson();
      expect(
        await read(`SELECT measurement, usage_rows, input_tokens, output_tokens FROM v_usage_daily
          WHERE model = 'claude-4.6-sonnet' AND measurement = 'derived'`),
      ).toEqual([{ measurement: 'derived', usage_rows: '1', input_tokens: null, output_tokens: null }]);
      expect(
        await read(`SELECT currency, cost FROM v_usage_cost WHERE representation = 'store-metadata'
          AND model = 'claude-4.6-sonnet'`),
      ).toEqual([{ currency: 'USD', cost: null }]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('the Parquet dataset holds the same usage rows; both verify clean', async () => {
    expect(await rowsOf('parquet', paths.parquet, USAGE)).toEqual(
      await rowsOf('duckdb', paths.duckdb, USAGE),
    );
    expect(await withReadOnlyWarehouse(paths.duckdb, verifyWarehouse)).toMatchObject({ problems: [] });
  });

  it('v5 → v6 (DuckDB): one --since-last run re-reads every source and adds the Store model rows', async () => {
    expect(v5.duckdbRun!.counts.sourcesSkippedUnchanged).toBe(0);
    expect(v5.duckdbRun!.counts.sessionsReplaced).toBe(2);
    expect(await rowsOf('duckdb', v5.duckdb, USAGE)).toEqual(await rowsOf('duckdb', paths.duckdb, USAGE));
    const digests = 'SELECT session_id, view_digest FROM sessions ORDER BY ALL';
    expect(await rowsOf('duckdb', v5.duckdb, digests)).toEqual(await rowsOf('duckdb', paths.duckdb, digests));
  });

  it('v5 → v6 (Parquet): a version 5 state makes one --since-last run re-read every source', async () => {
    expect(v5.parquetRun!.counts.sourcesSkippedUnchanged).toBe(0);
    expect(readCurrentManifest(new DatasetLayout(v5.parquet))!.schemaVersion).toBe(WAREHOUSE_SCHEMA_VERSION);
    expect(await rowsOf('parquet', v5.parquet, USAGE)).toEqual(await rowsOf('parquet', paths.parquet, USAGE));
  });

  it('v4 → v5: one --since-last run re-reads every source, fills usage, replaces only sessions with usage', async () => {
    expect(upgraded.counts.sourcesSkippedUnchanged).toBe(0);
    expect(await rowsOf('duckdb', upgradePath, USAGE)).toEqual(await rowsOf('duckdb', paths.duckdb, USAGE));
    const withUsage = await rowsOf(
      'duckdb',
      paths.duckdb,
      'SELECT count(DISTINCT session_id) AS n FROM usage',
    );
    expect(upgraded.counts.sessionsReplaced).toBe(Number(withUsage[0]!.n));
    expect(upgraded.counts.sessionsInserted).toBe(0);
    const [meta] = await rowsOf(
      'duckdb',
      upgradePath,
      "SELECT value FROM etl_meta WHERE key = 'schema_version'",
    );
    expect(meta?.value).toBe(String(WAREHOUSE_SCHEMA_VERSION));
    const digests = 'SELECT session_id, view_digest FROM sessions ORDER BY ALL';
    expect(await rowsOf('duckdb', upgradePath, digests)).toEqual(
      await rowsOf('duckdb', paths.duckdb, digests),
    );
  });
});
