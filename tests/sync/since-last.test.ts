import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSampleCorpus, SAMPLE_COMPOSERS } from '../../fixtures/sample/sample-corpus.js';
import { deleteComposer, dropFromWorkspaceIndex, rewriteComposer } from '../helpers/mutate-composer.js';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { contentChecksum, queryRows, type RunJson, runJson } from '../helpers/warehouse-cli.js';

describe('incremental sync ledger through the CLI (etl run --since-last)', { timeout: 600_000 }, () => {
  let userDir: string;
  let globalDb: string;
  let target: string;
  let fullPayload: number;
  const run = (...extra: string[]) => runJson(['--cursor-user-dir', userDir, '--target', target, ...extra]);
  const presence = () =>
    Object.fromEntries(
      queryRows(target, 'select session_id, present_in_source from etl_session_state').map((r) => [
        r.session_id,
        r.present_in_source,
      ]),
    );

  beforeAll(() => {
    const root = tempDir();
    userDir = buildSampleCorpus(join(root, 'cursor')).userDir;
    globalDb = join(userDir, 'globalStorage', 'state.vscdb');
    target = `duckdb:${join(root, 'warehouse.duckdb')}`;
    const first = run();
    expect(first.counts.sessionsInserted).toBe(3);
    fullPayload = first.payloadBytesRead;
    expect(fullPayload).toBeGreaterThan(0);
  }, 600_000);

  it('--since-last with nothing changed skips every source without reading payloads (counters) and writes nothing', () => {
    const before = contentChecksum(target);
    const incremental = run('--since-last');
    expect(incremental.mode).toBe('since-last');
    expect(incremental.payloadBytesRead).toBe(0);
    expect(incremental.payloadReads).toBe(0);
    expect(incremental.counts.sourcesSkippedUnchanged).toBe(incremental.counts.sourcesSeen);
    expect(incremental.counts).toMatchObject({
      sessionsInserted: 0,
      sessionsReplaced: 0,
      sessionsUnchanged: 0,
    });
    expect(contentChecksum(target)).toBe(before);
  });

  it('a no-op run writes no ledger row: sources and sessions keep the run that last read them, and its run record counts them as skipped', () => {
    const ledger = () => ({
      sources: queryRows(target, 'select * from etl_sources order by source_key'),
      memberships: queryRows(target, 'select * from etl_session_sources order by session_id, occurrence_ref'),
      sessions: queryRows(target, 'select * from etl_session_state order by session_id'),
    });
    const before = ledger();
    expect(before.sources.length).toBeGreaterThan(0);
    const noop = run('--since-last');
    expect(ledger()).toEqual(before);
    expect(before.sources.map((r) => r.last_seen_run)).not.toContain(noop.runId);
    const record = queryRows(
      target,
      `select status, sources_seen, sources_skipped_unchanged from etl_runs where run_id = '${noop.runId}'`,
    );
    expect(record).toEqual([
      {
        status: 'committed',
        sources_seen: before.sources.length,
        sources_skipped_unchanged: before.sources.length,
      },
    ]);
  });

  it('a changed source re-extracts only the session it changed: exactly that session is replaced', () => {
    const changed = SAMPLE_COMPOSERS[1]!;
    rewriteComposer(globalDb, {
      ...changed,
      bubbles: changed.bubbles.map((b, i) => (i === 0 ? { ...b, text: `${b.text} (edited)` } : b)),
    });
    const incremental = run('--since-last');
    expect(incremental.counts).toMatchObject({
      sessionsReplaced: 1,
      sessionsInserted: 0,
      sessionsUnchanged: 0,
    });
    expect(incremental.payloadBytesRead).toBeGreaterThan(0);
    expect(incremental.payloadBytesRead).toBeLessThan(fullPayload);
    const content = queryRows(
      target,
      `select content from messages where session_id = '${changed.id}' and ordinal = 0`,
    );
    expect(String(content[0]!.content)).toMatch(/\(edited\)$/);
    // A full run agrees that nothing else changed.
    expect(run().counts).toMatchObject({ sessionsReplaced: 0, sessionsInserted: 0, sessionsUnchanged: 3 });
  });

  it('a workspace-fallback view of an archived complete session leaves it unchanged; once no source holds it, it is kept and flagged present_in_source = false (ledger only); it comes back when it reappears', () => {
    const gone = SAMPLE_COMPOSERS[2]!;
    const before = contentChecksum(target);
    deleteComposer(globalDb, gone.id);
    const fallback = run('--since-last');
    expect(fallback.counts).toMatchObject({
      sessionsKeptComplete: 1,
      sessionsReplaced: 0,
      sessionsMarkedAbsent: 0,
    });
    expect(contentChecksum(target)).toBe(before);
    expect(presence()[gone.id]).toBe(true);
    const workspaceDb = join(userDir, 'workspaceStorage', '6a1f0c2d7e00000000000000000000a1', 'state.vscdb');
    const restoreIndex = dropFromWorkspaceIndex(workspaceDb, gone.id);
    const incremental = run('--since-last');
    expect(incremental.counts.sessionsMarkedAbsent).toBe(1);
    expect(contentChecksum(target)).toBe(before);
    expect(presence()[gone.id]).toBe(false);
    expect(Number(queryRows(target, 'select count(*) as n from sessions')[0]!.n)).toBe(3);
    rewriteComposer(globalDb, gone);
    restoreIndex();
    const back = run('--since-last');
    // Sessions sharing the changed workspace index are re-read too; none is written.
    expect(back.counts).toMatchObject({ sessionsReplaced: 0, sessionsInserted: 0, sessionsMarkedAbsent: 0 });
    expect(back.counts.sessionsUnchanged).toBeGreaterThanOrEqual(1);
    expect(presence()[gone.id]).toBe(true);
  });

  it('absence is concluded only for sources read in the run: a run over other roots flags nothing', () => {
    const otherUserDir = buildSampleCorpus(join(tempDir(), 'other')).userDir;
    const other = runJson(['--cursor-user-dir', otherUserDir, '--target', target]);
    expect(other.counts.sessionsMarkedAbsent).toBe(0);
    deleteComposer(join(otherUserDir, 'globalStorage', 'state.vscdb'), SAMPLE_COMPOSERS[0]!.id);
    // The first roots still hold the session, so it stays present even though the other copy vanished.
    runJson(['--cursor-user-dir', otherUserDir, '--target', target, '--since-last']);
    expect(presence()[SAMPLE_COMPOSERS[0]!.id]).toBe(true);
  });
});

describe('a default data root that is gone (an unmounted home) is neither read nor concluded absent', {
  timeout: 600_000,
}, () => {
  it('warns SOURCE_ROOT_MISSING, marks no session absent, and the next run with the root back writes nothing', () => {
    const root = tempDir();
    const config = join(root, 'config');
    const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: config };
    const userDir = buildSampleCorpus(join(config, 'Cursor')).userDir;
    expect(userDir).toBe(join(config, 'Cursor', 'User'));
    const target = `duckdb:${join(root, 'warehouse.duckdb')}`;
    const run = (...extra: string[]) => {
      const result = runCli(['run', '--json', '--target', target, ...extra], env);
      expect(result.code).toBe(0);
      return JSON.parse(result.stdout) as { run: RunJson; diagnostics: { code: string; details: unknown }[] };
    };
    const first = run();
    expect(first.run.counts.sessionsInserted).toBe(3);
    // No ~/.cursor in this home: the Store root is missing from the start.
    expect(first.diagnostics).toEqual([
      expect.objectContaining({ code: 'SOURCE_ROOT_MISSING', details: { root: 'cursorStoreRoot' } }),
    ]);
    const before = contentChecksum(target);
    renameSync(join(config, 'Cursor'), join(root, 'away'));
    for (const mode of [[], ['--since-last']]) {
      const gone = run(...mode);
      expect(gone.run.counts.sessionsMarkedAbsent).toBe(0);
      expect(gone.diagnostics.map((d) => d.details)).toEqual([
        { root: 'cursorUserDir' },
        { root: 'cursorStoreRoot' },
      ]);
    }
    expect(
      queryRows(target, 'select count(*)::int as n from etl_session_state where present_in_source'),
    ).toEqual([{ n: 3 }]);
    renameSync(join(root, 'away'), join(config, 'Cursor'));
    const back = run('--since-last');
    expect(back.run.counts).toMatchObject({
      sessionsInserted: 0,
      sessionsReplaced: 0,
      sessionsMarkedAbsent: 0,
    });
    expect(back.run.payloadBytesRead).toBe(0);
    expect(contentChecksum(target)).toBe(before);
  });
});
