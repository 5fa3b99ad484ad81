/**
 * An older build's Parquet dataset (fixtures/parquet/pre-identity-dataset.ts): the next run, even
 * `--since-last`, converges on a fresh load, replaces only the affected sessions once, leaves no old
 * identity behind and rewrites files lacking a column; a repeat writes nothing.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { UNDASHED, writePreIdentityDataset } from '../../fixtures/parquet/pre-identity-dataset.js';
import {
  addUnaffectedSession,
  buildIdentityCorpus,
  IDENTITY_IDS as IDS,
  type IdentityCorpus,
} from '../../fixtures/store/identity-corpus.js';
import { CONTENT_TABLES } from '../../schemas/tables.js';
import { verifyWarehouse } from '../../src/load/duckdb/verify-warehouse.js';
import { DatasetLayout } from '../../src/load/parquet/dataset-layout.js';
import { type DatasetManifest, readCurrentManifest } from '../../src/load/parquet/dataset-manifest.js';
import { withReadOnlyTarget } from '../../src/load/read-only-target.js';
import type { RunSummary } from '../../src/sync/run-state.js';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { runInProcess } from '../helpers/sync-convergence.js';

/** A Store session with no tool call and a dashed directory: the same rows under both builds. */

const parquet = (path: string) => ({ kind: 'parquet', path }) as const;

async function query(dataset: string, sql: string): Promise<Record<string, unknown>[]> {
  return withReadOnlyTarget(parquet(dataset), async (c) => (await c.runAndReadAll(sql)).getRowObjects());
}

/** Per session present in the sources, one digest of its rows in every content table. */
async function datasetState(dataset: string): Promise<Record<string, string>> {
  const digests = new Map<string, ReturnType<typeof createHash>>();
  for (const table of CONTENT_TABLES) {
    const rows = await query(
      dataset,
      `SELECT t::VARCHAR AS r, t.session_id AS id FROM ${table.name} t
        WHERE t.session_id IN (SELECT session_id FROM etl_session_state WHERE present_in_source) ORDER BY 1`,
    );
    for (const row of rows) {
      const id = String(row.id);
      if (!digests.has(id)) digests.set(id, createHash('sha256'));
      digests.get(id)!.update(`${table.name}\u0000${String(row.r)}\n`);
    }
  }
  return Object.fromEntries([...digests].sort().map(([id, hash]) => [id, hash.digest('hex')]));
}

const manifestOf = (dataset: string): DatasetManifest => readCurrentManifest(new DatasetLayout(dataset))!;

/** Content-table files of a state: path → inode. */
function contentFiles(dataset: string, manifest: DatasetManifest): Map<string, bigint> {
  const layout = new DatasetLayout(dataset);
  return new Map(
    CONTENT_TABLES.flatMap((t) => manifest.tables[t.name]?.files ?? []).map((f) => [
      f.path,
      statSync(join(layout.stateDir(manifest.stateId), f.path), { bigint: true }).ino,
    ]),
  );
}

describe('Parquet identity upgrade convergence', () => {
  let corpus: IdentityCorpus;
  let upgraded: string;
  let fresh: string;
  let old: DatasetManifest;
  let oldToolCalls: Record<string, unknown>[];
  let oldSessions: unknown[];
  let migration: { code: string; details: { remedy: string } };
  let verifyOld: number;
  let first: RunSummary;
  let second: RunSummary;
  let afterFirst: DatasetManifest;
  let afterSecond: DatasetManifest;
  beforeAll(async () => {
    const dir = tempDir('etl-parquet-identity-upgrade-');
    corpus = buildIdentityCorpus(join(dir, 'sources'));
    addUnaffectedSession(corpus);
    upgraded = join(dir, 'upgraded');
    fresh = join(dir, 'fresh');
    await writePreIdentityDataset(corpus, upgraded, join(dir, 'old-build'), (warehouse) =>
      runInProcess(corpus, warehouse, false),
    );
    old = manifestOf(upgraded);
    oldSessions = (await query(upgraded, 'SELECT session_id FROM sessions')).map((r) => r.session_id);
    oldToolCalls = await query(upgraded, 'SELECT tool_id, native_call_id FROM tool_calls ORDER BY tool_id');
    migration = JSON.parse(runCli(['status', '--json', '--target', `parquet:${upgraded}`]).stderr).error;
    verifyOld = runCli(['verify', '--json', '--target', `parquet:${upgraded}`]).code;
    first = await runInProcess(corpus, upgraded, true, 'parquet');
    afterFirst = manifestOf(upgraded);
    second = await runInProcess(corpus, upgraded, true, 'parquet');
    afterSecond = manifestOf(upgraded);
    await runInProcess(corpus, fresh, false, 'parquet');
  }, 240_000);

  it('the fixture is the older build: no native_call_id, no row_provenance, undashed compact sessions', () => {
    expect(old.schemaVersion).toBe(3);
    expect(Object.keys(old.tables)).not.toContain('row_provenance');
    const header = readFileSync(
      join(new DatasetLayout(upgraded).stateDir(old.stateId), old.tables.tool_calls!.files[0]!.path),
    );
    expect(header.subarray(0, 4).toString()).toBe('PAR1');
    expect(oldSessions).toEqual(expect.arrayContaining([...UNDASHED, IDS.compact]));
  });

  it('older data files stay readable: a column they lack reads as NULL', () => {
    expect(oldToolCalls.length).toBe(7);
    expect(oldToolCalls.every((row) => row.native_call_id === null)).toBe(true);
    expect(oldToolCalls.map((row) => row.tool_id)).toContain('call_s02_1');
  });

  it('etl status and verify on the older dataset say the next run converges stored identities', () => {
    expect(migration.code).toBe('WAREHOUSE_MIGRATION_REQUIRED');
    expect(migration.details.remedy).toMatch(/identities converge/);
    expect(verifyOld).toBe(2);
  });

  it('the next --since-last run reads every source again and converges on a fresh load', async () => {
    expect(first.counts.sourcesSkippedUnchanged).toBe(0);
    expect(await datasetState(upgraded)).toEqual(await datasetState(fresh));
  });

  it('only the affected sessions are replaced, once, and a repeat writes nothing', () => {
    // Store tool IDs (Store-only DB, merge), a newly kept native call ID (transcript) and the dashed
    // compact session, now its store.db and transcript: replaced. The uppercase one is new.
    expect(first.counts).toMatchObject({
      sessionsReplaced: 4,
      sessionsInserted: 1,
      sessionsUnchanged: 1,
      sessionsMarkedAbsent: 2,
    });
    expect(second.counts).toMatchObject({
      sourcesSkippedUnchanged: second.counts.sourcesSeen,
      sessionsReplaced: 0,
      sessionsInserted: 0,
      sessionsUnchanged: 0,
      sessionsMarkedAbsent: 0,
    });
  });

  it('the upgrade rewrites every file lacking a column; the repeat links every data file', () => {
    const firstFiles = contentFiles(upgraded, afterFirst);
    const oldToolFiles = old.tables.tool_calls!.files.map((f) => f.path);
    expect(oldToolFiles.length).toBeGreaterThan(0);
    expect(oldToolFiles.filter((path) => firstFiles.has(path))).toEqual([]);
    const secondFiles = contentFiles(upgraded, afterSecond);
    expect(secondFiles).toEqual(firstFiles);
  });

  it('no old identity is left behind: no undashed compact session, no Store call keyed by its call ID', async () => {
    const tables = [...CONTENT_TABLES.map((t) => t.name), 'etl_session_sources', 'etl_session_state'];
    for (const table of tables)
      expect(
        await query(
          upgraded,
          `SELECT session_id FROM ${table} WHERE session_id IN ('${UNDASHED.join("', '")}')`,
        ),
        table,
      ).toEqual([]);
    expect(
      await query(upgraded, "SELECT tool_id FROM tool_calls WHERE tool_id_origin = 'source-native'"),
    ).toEqual([]);
    const status = runCli(['status', '--json', '--target', `parquet:${upgraded}`]);
    expect(status.code).toBe(0);
    expect(await withReadOnlyTarget(parquet(upgraded), verifyWarehouse)).toMatchObject({ problems: [] });
  });
});
