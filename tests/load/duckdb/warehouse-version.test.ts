import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { DuckDbTarget } from '../../../src/load/duckdb/duckdb-target.js';
import { runQuery, withReadOnlyWarehouse } from '../../../src/load/duckdb/read-only-query.js';
import { verifyWarehouse } from '../../../src/load/duckdb/verify-warehouse.js';
import { WAREHOUSE_SCHEMA_VERSION } from '../../../src/load/duckdb/warehouse-version.js';
import type { NormalizedSession } from '../../../src/transform/normalized-session.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';
import { sampleSessions } from '../../helpers/sample-sessions.js';

async function sql(path: string, statements: string[]): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  for (const statement of statements) await connection.run(statement);
  connection.closeSync();
  instance.closeSync();
}

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('warehouse schema/ledger version', () => {
  let sessions: NormalizedSession[];
  beforeAll(async () => {
    sessions = await sampleSessions();
  });
  const load = async (path: string) => {
    const target = await DuckDbTarget.open(path);
    try {
      const memberships = new Map(
        sessions.map((s) => [
          s.session.session_id,
          [
            {
              sessionId: s.session.session_id,
              sourceKey: 'src:test',
              occurrenceRef: `occ:${s.session.session_id}`,
              sessionFingerprint: null,
              contentFingerprint: null,
            },
          ],
        ]),
      );
      return await target.loadBatch(sessions, {
        runId: 'r1',
        memberships,
        discoveredSourceKeys: new Set(['src:test']),
      });
    } finally {
      await target.close();
    }
  };
  const version = (path: string) =>
    withReadOnlyWarehouse(path, async (c) =>
      String((await runQuery(c, "select value from etl_meta where key = 'schema_version'")).rows[0]!.value),
    );

  it('a warehouse newer than this build fails closed: exit 5 through the CLI, nothing written', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await load(path);
    await sql(path, [
      `UPDATE etl_meta SET value = '${WAREHOUSE_SCHEMA_VERSION + 1}' WHERE key = 'schema_version'`,
    ]);
    const before = sha(path);
    await expect(DuckDbTarget.open(path)).rejects.toMatchObject({
      code: 'WAREHOUSE_VERSION_NEWER',
      exitCode: 5,
    });
    const result = runCli(['run', '--json', '--cursor-user-dir', tempDir(), '--target', `duckdb:${path}`]);
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stderr).error.code).toBe('WAREHOUSE_VERSION_NEWER');
    expect(sha(path)).toBe(before);
  }, 120_000);

  it('a version 1 warehouse: status/verify ask for a migration (exit 2, untouched), then etl run migrates explicitly and idempotently to the current version', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await load(path);
    // Recreate the v1 shape: no ledger tables, no v2 run columns.
    await sql(path, [
      'DROP TABLE etl_sources',
      'DROP TABLE etl_session_sources',
      'DROP TABLE etl_session_state',
      'ALTER TABLE etl_runs DROP COLUMN sessions_marked_absent',
      'ALTER TABLE etl_runs DROP COLUMN payload_bytes_read',
      'ALTER TABLE etl_runs DROP COLUMN owner_pid',
      "UPDATE etl_meta SET value = '1' WHERE key = 'schema_version'",
    ]);
    const before = sha(path);
    for (const command of ['status', 'verify']) {
      const readOnly = runCli([command, '--json', '--target', `duckdb:${path}`]);
      expect(readOnly.code).toBe(2);
      expect(readOnly.stdout).toBe('');
      expect(JSON.parse(readOnly.stderr).error).toMatchObject({
        code: 'WAREHOUSE_MIGRATION_REQUIRED',
        details: { warehouseVersion: 1 },
      });
    }
    expect(sha(path)).toBe(before);
    const migrated = await load(path);
    expect(migrated.every((r) => r.action === 'unchanged')).toBe(true);
    expect(await version(path)).toBe(String(WAREHOUSE_SCHEMA_VERSION));
    await load(path);
    expect(await version(path)).toBe(String(WAREHOUSE_SCHEMA_VERSION));
    const report = await withReadOnlyWarehouse(path, verifyWarehouse);
    expect(report).toMatchObject({ sessionsChecked: 3, problems: [] });
    const columns = await withReadOnlyWarehouse(path, (c) =>
      runQuery(c, "select column_name from information_schema.columns where table_name = 'etl_runs'"),
    );
    expect(columns.rows.map((r) => r.column_name)).toContain('payload_bytes_read');
  }, 120_000);

  it('a version 2 warehouse with digests of the previous definition converges in the migration: nothing replaced, verify clean', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await load(path);
    const digests = () =>
      withReadOnlyWarehouse(
        path,
        async (c) => (await runQuery(c, 'select view_digest from sessions order by session_id')).rows,
      );
    const current = await digests();
    // The previous definition hashed provenance too: any other stored value stands for it.
    await sql(path, [
      "UPDATE sessions SET view_digest = sha256('v1:' || session_id)",
      "UPDATE etl_meta SET value = '2' WHERE key = 'schema_version'",
    ]);
    const migrated = await load(path);
    expect(migrated.map((r) => r.action)).toEqual(sessions.map(() => 'unchanged'));
    expect(await digests()).toEqual(current);
    expect(await withReadOnlyWarehouse(path, verifyWarehouse)).toMatchObject({ problems: [] });
  }, 120_000);

  it('a version 2 warehouse of naive UTC timestamps migrates, on a Kolkata machine, to TIMESTAMPTZ columns holding the same instants', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await load(path);
    const columns = [
      ['sessions', 'created_at'],
      ['sessions', 'updated_at'],
      ['messages', 'timestamp'],
      ['etl_runs', 'started_at'],
    ] as const;
    const instants = () =>
      withReadOnlyWarehouse(path, async (c) => {
        const out: Record<string, unknown> = {};
        for (const [table, column] of columns)
          out[`${table}.${column}`] = (
            await runQuery(c, `select epoch_ms(${column}) AS ms from ${table} order by all`)
          ).rows;
        return out;
      });
    const types = () =>
      withReadOnlyWarehouse(path, async (c) =>
        (
          await runQuery(
            c,
            `select table_name, column_name, data_type from information_schema.columns
             where data_type like 'TIMESTAMP%' order by all`,
          )
        ).rows.map((r) => `${r.table_name}.${r.column_name} ${r.data_type}`),
      );
    const before = await instants();
    await sql(path, [
      ...[...columns, ['etl_runs', 'finished_at']].map(
        ([table, column]) =>
          `ALTER TABLE ${table} ALTER COLUMN ${column} SET DATA TYPE TIMESTAMP USING timezone('UTC', ${column})`,
      ),
      "UPDATE etl_meta SET value = '2' WHERE key = 'schema_version'",
      'CHECKPOINT',
    ]);
    expect(await types()).toContain('sessions.created_at TIMESTAMP');
    const run = runCli(['run', '--json', '--cursor-user-dir', tempDir(), '--target', `duckdb:${path}`], {
      TZ: 'Asia/Kolkata',
    });
    expect(run.code, run.stderr).toBe(0);
    const migrated = await types();
    expect(migrated).toEqual(expect.arrayContaining(['sessions.created_at TIMESTAMP WITH TIME ZONE']));
    expect(migrated).toEqual(expect.arrayContaining(['v_sessions.created_at TIMESTAMP WITH TIME ZONE']));
    expect(migrated.filter((t) => !t.endsWith('TIMESTAMP WITH TIME ZONE'))).toEqual([]);
    const after = await instants();
    for (const [table, column] of columns.slice(0, 3))
      expect(after[`${table}.${column}`], `${table}.${column}`).toEqual(before[`${table}.${column}`]);
    expect(await withReadOnlyWarehouse(path, verifyWarehouse)).toMatchObject({ problems: [] });
  }, 120_000);
});
