import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LEDGER_TABLES } from '../../../schemas/ledger-tables.js';
import { createTableSql } from '../../../schemas/table-definition.js';
import { CONTENT_TABLES, diagnosticsTable } from '../../../schemas/tables.js';
import { DuckDBInstance } from '../../../src/load/duckdb/duckdb-api.js';
import { buildInstanceOptions } from '../../../src/load/duckdb/run-memory.js';
import type { AnyTable } from '../../../src/load/export/export-tables.js';
import { buildState } from '../../../src/load/parquet/build-state.js';
import { BUCKET_SQL, DatasetLayout } from '../../../src/load/parquet/dataset-layout.js';

/** Candidate session IDs; only those of bucket 0 are staged, so one partition holds every row. */
const CANDIDATES = 320;
const MESSAGES = 2_000;
/** 1 KB per message, ~20 sessions of 2 MB: one 40 MB bucket against a 32 MB pool (190 MB vs 128 MB at 10,000 sessions). */
const CONTENT_BYTES = 1_024;
const LIMITS = { rangeBytes: 2 * 1024 * 1024, rowGroupBytes: 2 * 1024 * 1024 };

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A staging database whose messages are too large to sort or buffer whole in its pool. */
async function largeStaging(dir: string) {
  const instance = await DuckDBInstance.create(join(dir, 'stage.duckdb'), {
    threads: buildInstanceOptions().threads!,
  });
  const connection = await instance.connect();
  for (const table of [...CONTENT_TABLES, diagnosticsTable, ...LEDGER_TABLES] as unknown as AnyTable[])
    await connection.run(createTableSql(table));
  // Sessions and messages are inserted in reverse order, so the output order is the build's work.
  await connection.run(`INSERT INTO messages BY NAME
    SELECT id AS session_id, printf('m-%05d', ordinal) AS message_id, 'cursor:' || id || ':' || ordinal AS archive_key,
      ordinal, 'user' AS role, repeat(md5(id || ordinal), ${CONTENT_BYTES / 32}) AS content,
      TIMESTAMP '2026-01-01' AS timestamp, 'source' AS timestamp_source, true AS on_active_branch, false AS is_sidechain,
      false AS is_corrupted, 'composer' AS origin, 'native' AS identity_origin
    FROM (SELECT printf('s-%04d', ${CANDIDATES} - i) AS id FROM range(${CANDIDATES}) a(i)),
      (SELECT ${MESSAGES - 1} - m AS ordinal FROM range(${MESSAGES}) b(m))
    WHERE ${BUCKET_SQL.replace('session_id', 'id')} = '0'`);
  // Written to disk first: the build reads a checkpointed staging file, as after a run.
  await connection.run('CHECKPOINT');
  await connection.run("SET memory_limit = '32MB'");
  await connection.run(
    `CREATE TEMP TABLE staged_sessions AS SELECT DISTINCT session_id, ${BUCKET_SQL} AS bucket FROM messages`,
  );
  const close = (): void => {
    connection.closeSync();
    instance.closeSync();
  };
  return { connection, close };
}

describe('the Parquet build of large partitions', () => {
  it('writes every bucket in table order within a pool smaller than a bucket, with row groups bounded in bytes', async () => {
    root = mkdtempSync(join(tmpdir(), 'etl-ordered-partition-'));
    const staging = await largeStaging(root);
    try {
      const buckets = (await staging.connection.runAndReadAll('SELECT DISTINCT bucket FROM staged_sessions'))
        .getRows()
        .map((row) => String(row[0]));
      const layout = new DatasetLayout(join(root, 'dataset'));
      const manifest = await buildState({
        layout,
        staging: staging.connection,
        previous: null,
        runId: 'r1',
        touchedBuckets: new Set(buckets),
        publishedAtMs: 0,
        limits: LIMITS,
      });
      const files = manifest.tables.messages!.files;
      expect(files.map((f) => f.partition)).toEqual(['0']);
      expect(files[0]!.rows % MESSAGES).toBe(0);
      expect(files[0]!.rows * CONTENT_BYTES).toBeGreaterThan(32 * 1024 * 1024);
      for (const file of files) {
        const path = join(layout.stateDir('r1'), file.path);
        const keys = (
          await staging.connection.runAndReadAll(`SELECT session_id, ordinal FROM read_parquet('${path}')`)
        ).getRows();
        const sorted = [...keys].sort((a, b) =>
          a[0] === b[0] ? Number(a[1]) - Number(b[1]) : String(a[0]) < String(b[0]) ? -1 : 1,
        );
        expect(keys).toEqual(sorted);
        const groups = await staging.connection.runAndReadAll(
          `SELECT max(row_group_num_rows) FROM parquet_metadata('${path}')`,
        );
        const maxRows = Number(groups.getRows()[0]?.[0]);
        expect(maxRows * CONTENT_BYTES).toBeLessThanOrEqual(LIMITS.rowGroupBytes);
        expect(maxRows * CONTENT_BYTES * 2).toBeGreaterThan(LIMITS.rowGroupBytes);
      }
    } finally {
      staging.close();
    }
  });
});
