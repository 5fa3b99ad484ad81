import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/load/duckdb/duckdb-warehouse.js';
import { runQuery } from '../../src/load/duckdb/read-only-query.js';
import { openMergeInput } from '../../src/load/merge-input.js';
import { type TargetLocation, targetOpener } from '../../src/load/open-target.js';
import { withReadOnlyTarget } from '../../src/load/read-only-target.js';
import { emptyCounts } from '../../src/sync/run-counts.js';
import type { NormalizedSession } from '../../src/transform/normalized-session.js';
import { computeViewDigest } from '../../src/transform/view-digest.js';
import { writeOriginWarehouse } from '../helpers/origin-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';
import { sampleSessions } from '../helpers/sample-sessions.js';
import { contentFileDigests, merge } from '../helpers/team-merge.js';

const ROWS_SQL = `SELECT 'sessions' AS t, rowid AS r, session_id AS s, origin AS o, md5(x::VARCHAR) AS h FROM sessions x
  UNION ALL SELECT 'messages', rowid, session_id, NULL, md5(x::VARCHAR) FROM messages x
  UNION ALL SELECT 'source_instances', rowid, session_id, origin, md5(x::VARCHAR) FROM source_instances x
  ORDER BY t, r`;

/** What a write would change: rowids and rows of the DuckDB file, the content files of the Parquet state. */
async function written(location: TargetLocation): Promise<unknown> {
  if (location.kind === 'duckdb') return rows(location);
  return contentFileDigests(location.path);
}

const rows = (location: TargetLocation, sql = ROWS_SQL) =>
  withReadOnlyTarget(location, async (c) => (await runQuery(c, sql)).rows);

async function onInput(path: string, sql: string): Promise<void> {
  const warehouse = await openWarehouse(path, 'write');
  try {
    await warehouse.connection.run(sql);
  } finally {
    warehouse.close();
  }
}

describe('etl merge: warehouses as sources', () => {
  let sessions: NormalizedSession[];
  beforeAll(async () => {
    sessions = await sampleSessions();
    expect(sessions.length).toBe(3);
  });

  for (const kind of ['duckdb', 'parquet'] as const) {
    it(`${kind}: two origins with disjoint sessions merge into one team warehouse; a re-merge reads and writes nothing`, async () => {
      const dir = tempDir();
      const at = (name: string): TargetLocation => ({
        kind,
        path: join(dir, kind === 'duckdb' ? `${name}.duckdb` : name),
      });
      await writeOriginWarehouse(at('ana'), sessions.slice(0, 2), 'ana@laptop');
      await writeOriginWarehouse(at('bo'), sessions.slice(2), 'bo@desktop');
      const team = at('team');
      const first = await merge(team, [at('ana'), at('bo')]);
      expect(first.counts.sessionsInserted).toBe(3);
      expect(first.sessionsRead).toBe(3);
      const merged = await rows(team, 'SELECT session_id, origin FROM sessions ORDER BY session_id');
      expect(merged.map((r) => r.origin)).toEqual(['ana@laptop', 'ana@laptop', 'bo@desktop']);
      const runs = await rows(team, "SELECT origin, mode FROM etl_runs WHERE mode = 'merge'");
      expect(runs).toEqual([{ origin: 'team-job', mode: 'merge' }]);
      const before = await written(team);
      const again = await merge(team, [at('ana'), at('bo')]);
      expect(again).toMatchObject({ inputsSkippedUnchanged: 2, sessionsRead: 0 });
      expect(again.counts.sessionsInserted + again.counts.sessionsReplaced).toBe(0);
      expect(await written(team)).toEqual(before);
    });
  }

  it('a Parquet input merges into a DuckDB target; a re-merge writes nothing', async () => {
    const dir = tempDir();
    const ana = { kind: 'parquet' as const, path: join(dir, 'ana') };
    const team = { kind: 'duckdb' as const, path: join(dir, 'team.duckdb') };
    await writeOriginWarehouse(ana, sessions, 'ana@laptop');
    const first = await merge(team, [ana]);
    expect(first).toMatchObject({ sessionsRead: 3, sessionsRefused: 0 });
    expect(first.counts.sessionsInserted).toBe(3);
    const merged = await rows(team, 'SELECT DISTINCT origin FROM sessions');
    expect(merged).toEqual([{ origin: 'ana@laptop' }]);
    const before = await written(team);
    const again = await merge(team, [ana]);
    expect(again).toMatchObject({ inputsSkippedUnchanged: 1, sessionsRead: 0 });
    expect(await written(team)).toEqual(before);
  });

  it('a changed input reads only the sessions whose digest changed; identical copies from another origin write nothing', async () => {
    const dir = tempDir();
    const ana = { kind: 'duckdb' as const, path: join(dir, 'ana.duckdb') };
    const copy = { kind: 'duckdb' as const, path: join(dir, 'copy.duckdb') };
    const team = { kind: 'duckdb' as const, path: join(dir, 'team.duckdb') };
    await writeOriginWarehouse(ana, sessions, 'ana');
    await merge(team, [ana]);
    const before = await rows(team);
    await writeOriginWarehouse(copy, sessions, 'restored-backup');
    const summary = await merge(team, [ana, copy]);
    expect(summary).toMatchObject({ inputsSkippedUnchanged: 1, sessionsRead: 3 });
    expect(summary.counts.sessionsUnchanged).toBe(3);
    expect(await rows(team)).toEqual(before);
    // A new run on the copy that changes nothing moves its last run ID: its fingerprint changes,
    // and every session's digest is already recorded, so no session is read.
    await writeOriginWarehouse(copy, [], 'restored-backup');
    const rerun = await merge(team, [ana, copy]);
    expect(rerun).toMatchObject({ inputsSkippedUnchanged: 1, sessionsRead: 0 });
  });

  it('a tampered input row is refused with a diagnostic; the rest merges and the input is checked again next time', async () => {
    const dir = tempDir();
    const ana = { kind: 'duckdb' as const, path: join(dir, 'ana.duckdb') };
    const team = { kind: 'duckdb' as const, path: join(dir, 'team.duckdb') };
    await writeOriginWarehouse(ana, sessions, 'ana');
    const victim = sessions[1]!.session.session_id;
    await onInput(
      ana.path,
      `UPDATE messages SET content = 'forged' WHERE session_id = '${victim}' AND ordinal = 0`,
    );
    const summary = await merge(team, [ana]);
    expect(summary.sessionsRefused).toBe(1);
    expect(summary.counts.sessionsInserted).toBe(2);
    const refused = summary.diagnostics.filter((d) => d.code === 'MERGE_INPUT_DIGEST_MISMATCH');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      severity: 'error',
      sessionId: victim,
      details: { input: 0, check: 'digest' },
    });
    expect(JSON.stringify(refused)).not.toContain('forged');
    const ids = await rows(team, 'SELECT session_id FROM sessions ORDER BY 1');
    expect(ids.map((r) => r.session_id)).not.toContain(victim);
    const again = await merge(team, [ana]);
    expect(again).toMatchObject({ inputsSkippedUnchanged: 0, sessionsRead: 1, sessionsRefused: 1 });
  });

  it('an input of a newer schema version fails closed before any row is read', async () => {
    const dir = tempDir();
    const ana = { kind: 'duckdb' as const, path: join(dir, 'ana.duckdb') };
    await writeOriginWarehouse(ana, sessions, 'ana');
    await onInput(ana.path, "UPDATE etl_meta SET value = '99' WHERE key = 'schema_version'");
    await expect(openMergeInput(ana)).rejects.toMatchObject({ code: 'WAREHOUSE_VERSION_NEWER', exitCode: 5 });
  });

  it('a redacted target refuses an input not redacted under its policy, before writing any session', async () => {
    const dir = tempDir();
    const ana = { kind: 'duckdb' as const, path: join(dir, 'ana.duckdb') };
    const team = { kind: 'duckdb' as const, path: join(dir, 'team.duckdb') };
    await writeOriginWarehouse(ana, sessions, 'ana');
    const redacted = await (await targetOpener(team))();
    const redaction = { enabled: true, ruleset: 1, homePaths: false, keyCheck: 'check' };
    await redacted.beginRun({ runId: 'r-1', startedAtMs: 1, mode: 'full', optionsDigest: 'x', redaction });
    await redacted.finishRun('r-1', 'committed', 2, emptyCounts());
    await redacted.close();
    await expect(merge(team, [ana])).rejects.toMatchObject({ code: 'MERGE_REDACTION_MISMATCH', exitCode: 2 });
    expect(await rows(team, 'SELECT count(*)::INTEGER AS n FROM sessions')).toEqual([{ n: 0 }]);
    expect(await rows(team, "SELECT status FROM etl_runs WHERE mode = 'merge'")).toEqual([
      { status: 'failed' },
    ]);
  });

  it('a version 4 input (before origins) merges with its origin unknown', async () => {
    const dir = tempDir();
    const old = { kind: 'duckdb' as const, path: join(dir, 'old.duckdb') };
    const team = { kind: 'duckdb' as const, path: join(dir, 'team.duckdb') };
    // Version 4 had no usage or file_edits rows, and its digests covered no usage.
    const v4 = sessions.map((s) => {
      const bare = { ...s, usage: [], fileEdits: [] };
      return { ...bare, session: { ...s.session, view_digest: computeViewDigest(bare) } };
    });
    await writeOriginWarehouse(old, v4, 'ana');
    await onInput(
      old.path,
      `ALTER TABLE sessions DROP COLUMN origin; ALTER TABLE source_instances DROP COLUMN origin;
       DROP TABLE usage; DROP TABLE file_edits; DROP TABLE model_prices;
       UPDATE etl_meta SET value = '4' WHERE key = 'schema_version'`,
    );
    const summary = await merge(team, [old]);
    expect(summary.counts.sessionsInserted).toBe(3);
    expect(await rows(team, 'SELECT DISTINCT origin FROM sessions')).toEqual([{ origin: null }]);
  });
});
