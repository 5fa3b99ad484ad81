/**
 * The DuckDB warehouse of the build before Store tool identity v1 (fixtures/duckdb/pre-identity-
 * warehouse.ts: schema 3 without `native_call_id`, `row_provenance` or the subagent link columns): the
 * next run, `--since-last` or full, migrates it and converges on a fresh load; a repeat writes nothing.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { writePreIdentityWarehouse } from '../../fixtures/duckdb/pre-identity-warehouse.js';
import { UNDASHED } from '../../fixtures/parquet/pre-identity-dataset.js';
import {
  addUnaffectedSession,
  buildIdentityCorpus,
  IDENTITY_IDS as IDS,
  type IdentityCorpus,
} from '../../fixtures/store/identity-corpus.js';
import { CONTENT_TABLES } from '../../schemas/tables.js';
import { withReadOnlyWarehouse } from '../../src/load/duckdb/read-only-query.js';
import { verifyWarehouse } from '../../src/load/duckdb/verify-warehouse.js';
import type { RunSummary } from '../../src/sync/run-state.js';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { archivedStates, runInProcess } from '../helpers/sync-convergence.js';

/** A Store session with no tool call and a dashed directory: the same rows under both builds. */

/** Rows of `sql` on a warehouse opened as a plain DuckDB file (no schema check, no migration). */
async function rows(path: string, sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Rows of `table` in one warehouse and not (as often) in the other, both ways. */
async function tableDifference(a: string, b: string, table: string): Promise<number> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`ATTACH '${a}' AS a (READ_ONLY)`);
    await connection.run(`ATTACH '${b}' AS b (READ_ONLY)`);
    const count = async (x: string, y: string) =>
      Number(
        (
          await connection.runAndReadAll(
            `SELECT count(*) FROM (SELECT * FROM ${x}.${table} EXCEPT ALL SELECT * FROM ${y}.${table})`,
          )
        ).getRows()[0]![0],
      );
    return (await count('a', 'b')) + (await count('b', 'a'));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const columnsOf = async (path: string, table: string): Promise<string[]> =>
  (
    await rows(
      path,
      `SELECT column_name FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`,
    )
  ).map((row) => String(row.column_name));

describe('DuckDB identity upgrade from the pre-identity build', () => {
  let corpus: IdentityCorpus;
  let sinceLast: string;
  let full: string;
  let fresh: string;
  let oldShape: { tables: string[]; toolColumns: string[]; sessionColumns: string[]; version: unknown };
  let oldSessions: unknown[];
  let migration: { code: string; details: { remedy: string } };
  const runs: Record<'first' | 'second' | 'fullFirst' | 'fullSecond', RunSummary> = {} as never;
  beforeAll(async () => {
    const dir = tempDir('etl-duckdb-identity-upgrade-');
    corpus = buildIdentityCorpus(join(dir, 'sources'));
    addUnaffectedSession(corpus);
    sinceLast = join(dir, 'since-last.duckdb');
    full = join(dir, 'full.duckdb');
    fresh = join(dir, 'fresh.duckdb');
    await writePreIdentityWarehouse(corpus, sinceLast, join(dir, 'old-build'), (warehouse) =>
      runInProcess(corpus, warehouse, false),
    );
    copyFileSync(sinceLast, full);
    oldShape = {
      tables: (await rows(sinceLast, 'SELECT table_name FROM duckdb_tables() ORDER BY 1')).map((r) =>
        String(r.table_name),
      ),
      toolColumns: await columnsOf(sinceLast, 'tool_calls'),
      sessionColumns: await columnsOf(sinceLast, 'sessions'),
      version: (await rows(sinceLast, "SELECT value FROM etl_meta WHERE key = 'schema_version'"))[0]?.value,
    };
    oldSessions = (await rows(sinceLast, 'SELECT session_id FROM sessions')).map((r) => r.session_id);
    migration = JSON.parse(runCli(['status', '--json', '--target', `duckdb:${sinceLast}`]).stderr).error;
    runs.first = await runInProcess(corpus, sinceLast, true);
    runs.second = await runInProcess(corpus, sinceLast, true);
    runs.fullFirst = await runInProcess(corpus, full, false);
    runs.fullSecond = await runInProcess(corpus, full, false);
    await runInProcess(corpus, fresh, false);
  }, 240_000);

  it('the fixture is the older build: schema 3, no native_call_id, row_provenance or link columns', () => {
    expect(oldShape.version).toBe('3');
    expect(oldShape.tables).not.toContain('row_provenance');
    expect(oldShape.toolColumns.at(-1)).toBe('extensions');
    expect(oldShape.sessionColumns.at(-1)).toBe('extensions');
    expect(oldSessions).toEqual(expect.arrayContaining([...UNDASHED, IDS.compact]));
    expect(migration.code).toBe('WAREHOUSE_MIGRATION_REQUIRED');
    expect(migration.details.remedy).toMatch(/identities converge/);
  });

  it('the migrated tables end in the definition order: the added columns last', async () => {
    expect(await columnsOf(sinceLast, 'tool_calls')).toEqual(await columnsOf(fresh, 'tool_calls'));
    expect(await columnsOf(sinceLast, 'sessions')).toEqual(await columnsOf(fresh, 'sessions'));
    expect(await columnsOf(sinceLast, 'row_provenance')).toEqual(await columnsOf(fresh, 'row_provenance'));
  });

  it('the next --since-last run and a full run both converge on a fresh load, row provenance too', async () => {
    expect(runs.first.counts.sourcesSkippedUnchanged).toBe(0);
    const [bySinceLast, byFull, freshState] = await archivedStates([sinceLast, full, fresh]);
    expect(bySinceLast).toEqual(freshState);
    expect(byFull).toEqual(freshState);
    for (const upgraded of [sinceLast, full])
      for (const table of CONTENT_TABLES.map((t) => t.name))
        expect(await tableDifference(upgraded, fresh, table), table).toBe(0);
  });

  it('only the affected sessions are replaced, once, and a repeat writes nothing', () => {
    // Store tool IDs (Store-only DB, merge), a newly kept native call ID (transcript) and the dashed
    // compact session, now its store.db and transcript: replaced. The uppercase one is new.
    const upgrade = {
      sessionsReplaced: 4,
      sessionsInserted: 1,
      sessionsUnchanged: 1,
      sessionsMarkedAbsent: 2,
    };
    expect(runs.first.counts).toMatchObject(upgrade);
    expect(runs.fullFirst.counts).toMatchObject(upgrade);
    expect(runs.second.counts).toMatchObject({
      sourcesSkippedUnchanged: runs.second.counts.sourcesSeen,
      sessionsReplaced: 0,
      sessionsInserted: 0,
      sessionsUnchanged: 0,
      sessionsMarkedAbsent: 0,
    });
    expect(runs.fullSecond.counts).toMatchObject({
      sessionsReplaced: 0,
      sessionsInserted: 0,
      sessionsUnchanged: 6,
      sessionsMarkedAbsent: 0,
    });
  });

  it('no old identity is left behind, and status and verify are clean', async () => {
    for (const upgraded of [sinceLast, full]) {
      const tables = [...CONTENT_TABLES.map((t) => t.name), 'etl_session_sources', 'etl_session_state'];
      for (const table of tables)
        expect(
          await rows(
            upgraded,
            `SELECT session_id FROM ${table} WHERE session_id IN ('${UNDASHED.join("', '")}')`,
          ),
          table,
        ).toEqual([]);
      expect(
        await rows(upgraded, "SELECT tool_id FROM tool_calls WHERE tool_id_origin = 'source-native'"),
      ).toEqual([]);
      expect(runCli(['status', '--json', '--target', `duckdb:${upgraded}`]).code).toBe(0);
      expect(await withReadOnlyWarehouse(upgraded, verifyWarehouse)).toMatchObject({ problems: [] });
    }
  });
});
