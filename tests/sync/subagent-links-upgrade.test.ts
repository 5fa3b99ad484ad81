/**
 * A schema version 3 warehouse (DuckDB) or dataset (Parquet) holding the subagent corpus as the older
 * build stored it: the next `--since-last` run migrates it, reads every source once more and fills the
 * link columns; only the linked children are rewritten on DuckDB, and a repeat reads nothing.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { downgradeDuckDb, downgradeParquet } from '../../fixtures/subagent/schema-v3-warehouse.js';
import { SUBAGENT_IDS as IDS, writeSubagentCorpus } from '../../fixtures/subagent/subagent-corpus.js';
import { withReadOnlyWarehouse } from '../../src/load/duckdb/read-only-query.js';
import { verifyWarehouse } from '../../src/load/duckdb/verify-warehouse.js';
import { WAREHOUSE_SCHEMA_VERSION } from '../../src/load/duckdb/warehouse-version.js';
import type { RunSummary } from '../../src/sync/run-state.js';
import { rowsOf } from '../helpers/query-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/sync-convergence.js';

type Kind = 'duckdb' | 'parquet';
type Sources = { userDir: string; storeRoot: string };

const LINKS =
  'SELECT session_id, parent_session_id, root_session_id, spawn_tool_call_id, subagent_type FROM sessions ORDER BY ALL';

describe('schema v3 → v4: subagent link columns', { timeout: 300_000 }, () => {
  let root: string;
  let sources: Sources;
  const paths: Record<Kind, string> = { duckdb: '', parquet: '' };
  const fresh: Record<Kind, string> = { duckdb: '', parquet: '' };
  const upgrade: Record<Kind, RunSummary[]> = { duckdb: [], parquet: [] };
  let oldShape: Record<string, unknown>[];

  beforeAll(async () => {
    root = tempDir('etl-subagent-upgrade-');
    sources = writeSubagentCorpus(join(root, 'sources'));
    paths.duckdb = join(root, 'old.duckdb');
    paths.parquet = join(root, 'old-parquet');
    fresh.duckdb = join(root, 'fresh.duckdb');
    fresh.parquet = join(root, 'fresh-parquet');
    for (const kind of ['duckdb', 'parquet'] as const) {
      await runInProcess(sources, paths[kind], false, kind);
      await runInProcess(sources, fresh[kind], false, kind);
    }
    await downgradeDuckDb(paths.duckdb, [IDS.child]);
    await downgradeParquet(paths.parquet, [IDS.child]);
    oldShape = await rowsOf(
      'parquet',
      paths.parquet,
      'SELECT session_id, parent_session_id, root_session_id FROM sessions ORDER BY ALL',
    );
    for (const kind of ['duckdb', 'parquet'] as const) {
      upgrade[kind].push(await runInProcess(sources, paths[kind], true, kind));
      upgrade[kind].push(await runInProcess(sources, paths[kind], true, kind));
    }
  });

  it('an older Parquet state reads the added columns as NULL', () => {
    expect(oldShape.filter((r) => r.parent_session_id !== null).map((r) => r.session_id)).toEqual([
      IDS.child,
    ]);
    expect(oldShape.every((r) => r.root_session_id === null)).toBe(true);
    expect(oldShape).toHaveLength(6);
  });

  for (const kind of ['duckdb', 'parquet'] as const) {
    it(`${kind}: the first --since-last run reads every source again and converges on a fresh load`, async () => {
      expect(upgrade[kind][0]!.counts.sourcesSkippedUnchanged).toBe(0);
      expect(await rowsOf(kind, paths[kind], LINKS)).toEqual(await rowsOf(kind, fresh[kind], LINKS));
      const digests = 'SELECT session_id, view_digest FROM sessions ORDER BY ALL';
      expect(await rowsOf(kind, paths[kind], digests)).toEqual(await rowsOf(kind, fresh[kind], digests));
    });

    it(`${kind}: a repeat reads no payload and rewrites nothing`, () => {
      const again = upgrade[kind][1]!;
      expect(again.payloadBytesRead).toBe(0);
      expect(again.counts).toMatchObject({ sessionsReplaced: 0, sessionsInserted: 0 });
    });
  }

  it('duckdb: the migration recomputes digests, so only the five linked children are replaced; verify is clean', async () => {
    expect(upgrade.duckdb[0]!.counts).toMatchObject({
      sessionsReplaced: 5,
      sessionsUnchanged: 1,
      sessionsInserted: 0,
    });
    const [meta] = await rowsOf(
      'duckdb',
      paths.duckdb,
      "SELECT value FROM etl_meta WHERE key = 'schema_version'",
    );
    expect(meta?.value).toBe(String(WAREHOUSE_SCHEMA_VERSION));
    expect(await withReadOnlyWarehouse(paths.duckdb, verifyWarehouse)).toMatchObject({ problems: [] });
  });
});
