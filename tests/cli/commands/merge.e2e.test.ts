import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSampleCorpus } from '../../../fixtures/sample/sample-corpus.js';
import { openWarehouse } from '../../../src/load/duckdb/duckdb-warehouse.js';
import { runQuery, withReadOnlyWarehouse } from '../../../src/load/duckdb/read-only-query.js';
import type { NormalizedSession } from '../../../src/transform/normalized-session.js';
import { originView } from '../../helpers/origin-views.js';
import { writeOriginWarehouse } from '../../helpers/origin-warehouse.js';
import { faultAfter, interruptAfter, runCli, tempDir } from '../../helpers/run-cli.js';
import { sampleSessions } from '../../helpers/sample-sessions.js';

const rows = (path: string, sql: string) =>
  withReadOnlyWarehouse(path, async (c) => (await runQuery(c, sql)).rows);
const STATE_SQL = 'SELECT session_id, view_digest, origin, message_count FROM sessions ORDER BY session_id';

describe('etl merge through the CLI', () => {
  let dir: string;
  let ana: string;
  let bo: string;
  let sessions: NormalizedSession[];

  beforeAll(async () => {
    dir = tempDir('etl-merge-');
    const { userDir, storeRoot } = buildSampleCorpus(join(dir, 'cursor'));
    ana = join(dir, 'ana.duckdb');
    const run = runCli([
      'run',
      '--json',
      '--origin',
      'ana@laptop',
      '--cursor-user-dir',
      userDir,
      '--cursor-store-root',
      storeRoot,
      '--target',
      `duckdb:${ana}`,
    ]);
    expect(run.code, run.stderr).toBe(0);
    // Bo's machine holds the same sessions, each grown newer: same message IDs, later source times.
    sessions = await sampleSessions();
    bo = join(dir, 'bo.duckdb');
    await writeOriginWarehouse(
      { kind: 'duckdb', path: bo },
      sessions.map((s) => originView(s, 'bo', { updatedAt: s.session.updated_at + 60_000 })),
      'bo@desktop',
    );
  });

  it('etl run --origin stamps sessions, source instances and the run record', async () => {
    expect(await rows(ana, 'SELECT DISTINCT origin FROM sessions')).toEqual([{ origin: 'ana@laptop' }]);
    expect(await rows(ana, 'SELECT DISTINCT origin FROM source_instances')).toEqual([
      { origin: 'ana@laptop' },
    ]);
    expect(await rows(ana, 'SELECT origin FROM etl_runs')).toEqual([{ origin: 'ana@laptop' }]);
    const bad = runCli(['run', '--json', '--origin', 'no spaces', '--target', join(dir, 'x.duckdb')]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error.code).toBe('ORIGIN_INVALID');
  });

  it('a SIGKILL during a merge converges: the rerun reads only what was not committed, and ends as a clean merge', async () => {
    const clean = join(dir, 'clean.duckdb');
    const from = ['--from', ana, '--from', bo];
    expect(runCli(['merge', '--json', ...from, '--target', `duckdb:${clean}`]).code).toBe(0);
    const team = join(dir, 'team.duckdb');
    const killed = runCli(
      ['merge', '--json', ...from, '--target', `duckdb:${team}`],
      faultAfter('batch-committed:1'),
    );
    expect(killed.code).not.toBe(0);
    const rerun = runCli(['merge', '--json', ...from, '--target', `duckdb:${team}`]);
    expect(rerun.code, rerun.stderr).toBe(0);
    const summary = JSON.parse(rerun.stdout).merge;
    // Ana's batch committed before the kill, with its memberships: only Bo's sessions are read again.
    expect(summary.sessionsRead).toBe(sessions.length);
    expect(summary.counts.sessionsReplaced).toBe(sessions.length);
    expect(await rows(team, STATE_SQL)).toEqual(await rows(clean, STATE_SQL));
    expect(await rows(team, 'SELECT DISTINCT origin FROM sessions')).toEqual([{ origin: 'bo@desktop' }]);
    const third = JSON.parse(runCli(['merge', '--json', ...from, '--target', `duckdb:${team}`]).stdout).merge;
    expect(third).toMatchObject({ inputsSkippedUnchanged: 2, sessionsRead: 0 });
  });

  it('a SIGINT during a merge exits 130 as interrupted; the next merge converges on a clean one', async () => {
    const clean = join(dir, 'clean-int.duckdb');
    const from = ['--from', ana, '--from', bo];
    expect(runCli(['merge', '--json', ...from, '--target', `duckdb:${clean}`]).code).toBe(0);
    const team = join(dir, 'team-int.duckdb');
    const stopped = runCli(
      ['merge', '--json', ...from, '--target', `duckdb:${team}`],
      interruptAfter('batch-committed:1'),
    );
    expect(stopped.code, stopped.stderr).toBe(130);
    const interrupted = JSON.parse(stopped.stdout).merge;
    expect(interrupted.status).toBe('interrupted');
    // Ana's batch committed before the signal; the merge stopped at the next safe point.
    expect(interrupted.counts.sessionsInserted).toBeGreaterThanOrEqual(sessions.length);
    expect(await rows(team, "SELECT status FROM etl_runs WHERE mode = 'merge'")).toEqual([
      { status: 'interrupted' },
    ]);
    const rerun = runCli(['merge', '--json', ...from, '--target', `duckdb:${team}`]);
    expect(rerun.code, rerun.stderr).toBe(0);
    // Only what the stopped merge did not commit is read again: at most Bo's sessions.
    expect(JSON.parse(rerun.stdout).merge.sessionsRead).toBeLessThanOrEqual(sessions.length);
    expect(await rows(team, STATE_SQL)).toEqual(await rows(clean, STATE_SQL));
    const third = JSON.parse(runCli(['merge', '--json', ...from, '--target', `duckdb:${team}`]).stdout).merge;
    expect(third).toMatchObject({ inputsSkippedUnchanged: 2, sessionsRead: 0 });
  });

  it('exit categories: a tampered input exits 5 after merging the rest, a newer input 5, the target as input 2', async () => {
    const forged = join(dir, 'forged.duckdb');
    await writeOriginWarehouse({ kind: 'duckdb', path: forged }, sessions, 'cy');
    const warehouse = await openWarehouse(forged, 'write');
    await warehouse.connection.run("UPDATE tool_calls SET result = 'forged' WHERE tool_ordinal = 0");
    warehouse.close();
    const team = join(dir, 'team-forged.duckdb');
    const tampered = runCli(['merge', '--json', '--from', forged, '--target', `duckdb:${team}`]);
    expect(tampered.code).toBe(5);
    const codes = JSON.parse(tampered.stdout).diagnostics.map((d: { code: string }) => d.code);
    expect(codes).toContain('MERGE_INPUT_DIGEST_MISMATCH');
    const newer = join(dir, 'newer.duckdb');
    await writeOriginWarehouse({ kind: 'duckdb', path: newer }, sessions, 'dee');
    const meta = await openWarehouse(newer, 'write');
    await meta.connection.run("UPDATE etl_meta SET value = '99' WHERE key = 'schema_version'");
    meta.close();
    const failed = runCli([
      'merge',
      '--json',
      '--from',
      newer,
      '--target',
      `duckdb:${join(dir, 't2.duckdb')}`,
    ]);
    expect(failed.code).toBe(5);
    expect(JSON.parse(failed.stderr).error.code).toBe('WAREHOUSE_VERSION_NEWER');
    const self = runCli(['merge', '--json', '--from', ana, '--target', `duckdb:${ana}`]);
    expect(self.code).toBe(2);
    expect(JSON.parse(self.stderr).error.code).toBe('MERGE_INPUT_IS_TARGET');
  });
});
