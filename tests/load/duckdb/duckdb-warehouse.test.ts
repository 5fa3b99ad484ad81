import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DuckDbTarget } from '../../../src/load/duckdb/duckdb-target.js';
import { KEPT_WAL_MAX_BYTES, openWarehouse } from '../../../src/load/duckdb/duckdb-warehouse.js';
import { runQuery, withReadOnlyWarehouse } from '../../../src/load/duckdb/read-only-query.js';
import { WRITER_ROW_GROUP_ROWS } from '../../../src/load/duckdb/run-memory.js';
import { sqlString } from '../../../src/load/duckdb/sql-string.js';
import type { NormalizedSession } from '../../../src/transform/normalized-session.js';
import { tempDir } from '../../helpers/run-cli.js';
import { sampleSessions, withEditedContent } from '../../helpers/sample-sessions.js';
import { runThroughTarget } from '../../helpers/target-run.js';

async function execute(path: string, statements: string[]): Promise<void> {
  const opened = await openWarehouse(path, 'write');
  try {
    for (const statement of statements) await opened.connection.run(statement);
  } finally {
    opened.close();
  }
}

async function viewNames(path: string): Promise<string[]> {
  const result = await withReadOnlyWarehouse(path, (c) =>
    runQuery(c, "SELECT view_name FROM duckdb_views() WHERE NOT internal AND view_name = 'v_sessions'"),
  );
  return result.rows.map((r) => String(r.view_name));
}

describe('opening and closing the DuckDB warehouse', () => {
  let sessions: NormalizedSession[];
  beforeAll(async () => {
    sessions = await sampleSessions();
  });

  it("skips the DDL when the stored schema digest is this build's, and runs it again when it differs", async () => {
    const path = join(tempDir(), 'w.duckdb');
    await execute(path, ['DROP VIEW v_sessions']);
    // The digest still matches: the open trusts it and does not recreate the dropped view.
    expect(await viewNames(path)).toEqual([]);
    await execute(path, ["UPDATE etl_meta SET value = 'stale' WHERE key = 'schema_digest'"]);
    await execute(path, []);
    expect(await viewNames(path)).toEqual(['v_sessions']);
  });

  it('a run that writes no session rows leaves its small WAL; one that writes sessions checkpoints it', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await runThroughTarget(path, 'r1', sessions);
    expect(existsSync(`${path}.wal`)).toBe(false);
    await runThroughTarget(path, 'r2', []);
    expect(existsSync(`${path}.wal`)).toBe(true);
    await runThroughTarget(path, 'r3', [withEditedContent(sessions[0]!, 'edited')], 'since-last');
    expect(existsSync(`${path}.wal`)).toBe(false);
    await runThroughTarget(path, 'r4', []);
    expect(existsSync(`${path}.wal`)).toBe(true);
    // The kept WAL is replayed at open: every committed run is there.
    const runs = await withReadOnlyWarehouse(path, (c) =>
      runQuery(c, 'SELECT run_id, status FROM etl_runs ORDER BY run_id'),
    );
    expect(runs.rows).toEqual(['r1', 'r2', 'r3', 'r4'].map((run_id) => ({ run_id, status: 'committed' })));
  });

  it('a run that wrote no session rows checkpoints a WAL past the kept bound without a full collection', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await runThroughTarget(path, 'r1', sessions);
    // A WAL just past the bound a no-op keeps: its close must checkpoint it.
    await execute(path, [
      'PRAGMA disable_checkpoint_on_shutdown',
      `CREATE TABLE pad AS SELECT repeat('x', 1000) || range AS v FROM range(${Math.ceil(KEPT_WAL_MAX_BYTES / 1000) + 4})`,
    ]);
    expect(statSync(`${path}.wal`).size).toBeGreaterThan(KEPT_WAL_MAX_BYTES);
    const gc = vi.fn();
    vi.stubGlobal('gc', gc);
    try {
      await runThroughTarget(path, 'r2', []);
      expect(existsSync(`${path}.wal`)).toBe(false);
      expect(gc).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('successive runs that write no session rows never leave more than the bound and one run record to replay', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await runThroughTarget(path, 'r0', sessions);
    const walSizes: number[] = [];
    for (let run = 1; run <= 40; run += 1) {
      await runThroughTarget(path, `r${run}`, []);
      walSizes.push(existsSync(`${path}.wal`) ? statSync(`${path}.wal`).size : 0);
    }
    const oneRecord = walSizes[0]!;
    expect(oneRecord).toBeGreaterThan(0);
    expect(Math.max(...walSizes)).toBeLessThanOrEqual(KEPT_WAL_MAX_BYTES + oneRecord);
    // The bound was crossed and checkpointed: a later run starts a new WAL.
    expect(walSizes.slice(1).some((size, i) => size < walSizes[i]!)).toBe(true);
    expect(KEPT_WAL_MAX_BYTES).toBeLessThanOrEqual(64 * 1024);
  });

  it('an incremental run that replaces one session checkpoints it too, so the file alone holds it', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await runThroughTarget(path, 'r1', sessions);
    await runThroughTarget(path, 'r2', [withEditedContent(sessions[0]!, 'edited in place')], 'since-last');
    expect(existsSync(`${path}.wal`)).toBe(false);
    const content = await withReadOnlyWarehouse(path, (c) =>
      runQuery(c, `SELECT count(*)::INTEGER AS n FROM messages WHERE content = 'edited in place'`),
    );
    expect(content.rows).toEqual([{ n: 1 }]);
  });

  /** A sample session grown to 5,000 messages of ~1 KB: more than two row groups in one batch. */
  function largeSession(): NormalizedSession {
    const base = sessions[0]!;
    const text = 'x'.repeat(1_000);
    const messages = Array.from({ length: 5_000 }, (_, i) => ({
      ...base.messages[0]!,
      message_id: `m${i}`,
      archive_key: `cursor:${base.session.session_id}:m${i}`,
      ordinal: i,
      content: `${text}${i}`,
    }));
    return { ...base, messages };
  }

  it("compresses a batch's messages into the file at its COMMIT (row groups of 2,048 rows) instead of logging them to the WAL", async () => {
    const path = join(tempDir(), 'w.duckdb');
    const target = await DuckDbTarget.open(path);
    try {
      await target.beginRun({ runId: 'r1', startedAtMs: 0, mode: 'full', optionsDigest: 'o' });
      await target.loadBatch([largeSession()]);
      // ~5 MB of content committed; the WAL holds pointers to the written blocks and the small tables.
      expect(statSync(`${path}.wal`).size).toBeLessThan(512 * 1024);
    } finally {
      await target.close();
    }
    const groups = await withReadOnlyWarehouse(path, (c) =>
      runQuery(
        c,
        `SELECT count(DISTINCT row_group_id)::INT AS n, max(count)::INT AS rows
           FROM pragma_storage_info('messages') WHERE column_name = 'content'`,
      ),
    );
    expect(groups.rows).toEqual([{ n: 3, rows: WRITER_ROW_GROUP_ROWS }]);
  });

  it('a changed complete view of a 5,000-message session replaces it whole: its old rows deleted and its new ones written straight to the file in one transaction', async () => {
    const path = join(tempDir(), 'w.duckdb');
    const before = largeSession();
    await runThroughTarget(path, 'r1', [before]);
    await runThroughTarget(path, 'r2', [withEditedContent(before, 'edited')]);
    const rows = await withReadOnlyWarehouse(path, (c) =>
      runQuery(
        c,
        `SELECT count(*)::INT AS n, count(DISTINCT message_id)::INT AS ids,
           max(CASE WHEN ordinal = 0 THEN content END) AS first
           FROM messages WHERE session_id = ${sqlString(before.session.session_id)}`,
      ),
    );
    expect(rows.rows).toEqual([{ n: 5_000, ids: 5_000, first: 'edited' }]);
  });
});
