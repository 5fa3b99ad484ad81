import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { closingVacuum, MAX_DEFERRED_RUNS } from '../../../src/load/duckdb/deferred-vacuum.js';
import { DuckDbTarget } from '../../../src/load/duckdb/duckdb-target.js';
import { runQuery, withReadOnlyWarehouse } from '../../../src/load/duckdb/read-only-query.js';
import { WRITER_ROW_GROUP_ROWS } from '../../../src/load/duckdb/run-memory.js';
import type { NormalizedSession } from '../../../src/transform/normalized-session.js';
import { tempDir } from '../../helpers/run-cli.js';
import { sampleSessions, withEditedContent } from '../../helpers/sample-sessions.js';
import { runThroughTarget } from '../../helpers/target-run.js';

/** Row groups of `messages`, the stored count of deferred runs, and the edited message's content. */
async function state(path: string) {
  const result = await withReadOnlyWarehouse(path, (c) =>
    runQuery(
      c,
      `SELECT (SELECT count(DISTINCT row_group_id)::INT FROM pragma_storage_info('messages')) AS groups,
              (SELECT value FROM etl_meta WHERE key = 'vacuum_deferred_runs') AS deferred,
              (SELECT count(*)::INT FROM messages WHERE content LIKE 'edit %') AS edited`,
    ),
  );
  return result.rows[0];
}

describe('the row-group merge at a writing run’s closing checkpoint', () => {
  let sessions: NormalizedSession[];
  beforeAll(async () => {
    sessions = await sampleSessions();
  });

  it('defers for a run under a row group of rows while fewer than MAX_DEFERRED_RUNS runs deferred; merges otherwise', () => {
    expect(closingVacuum(100, 0)).toEqual({ defer: true, deferredRuns: 1 });
    expect(closingVacuum(WRITER_ROW_GROUP_ROWS - 1, MAX_DEFERRED_RUNS - 1)).toEqual({
      defer: true,
      deferredRuns: MAX_DEFERRED_RUNS,
    });
    expect(closingVacuum(100, MAX_DEFERRED_RUNS)).toEqual({ defer: false, deferredRuns: 0 });
    expect(closingVacuum(WRITER_ROW_GROUP_ROWS, 0)).toEqual({ defer: false, deferredRuns: 0 });
  });

  /** A copy of the first sample session under another session ID, with its first message edited. */
  function another(i: number): NormalizedSession {
    const base = withEditedContent(sessions[0]!, `edit ${i}`);
    const id = `${base.session.session_id}-${i}`;
    const own = <T extends { session_id: string }>(row: T): T => ({ ...row, session_id: id });
    return {
      ...base,
      session: own(base.session),
      messages: base.messages.map(own),
      toolCalls: base.toolCalls.map(own),
      sourceInstances: base.sourceInstances.map(own),
    };
  }

  it('small runs leave their rows in row groups of their own; the run after the last deferred one merges them all', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await runThroughTarget(path, 'r0', sessions, 'since-last');
    expect(await state(path)).toEqual({ groups: 1, deferred: '1', edited: 0 });
    for (let i = 1; i < MAX_DEFERRED_RUNS; i++) {
      await runThroughTarget(path, `r${i}`, [another(i)], 'since-last');
      expect(await state(path)).toEqual({ groups: i + 1, deferred: String(i + 1), edited: i });
    }
    await runThroughTarget(path, 'merge', [another(MAX_DEFERRED_RUNS)], 'since-last');
    expect(await state(path)).toEqual({ groups: 1, deferred: '0', edited: MAX_DEFERRED_RUNS });
  });

  it('a replaced session’s old rows stay deleted while the merge waits: queries see only the new view', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await runThroughTarget(path, 'r0', sessions, 'since-last');
    await runThroughTarget(path, 'r1', [withEditedContent(sessions[0]!, 'edit 1')], 'since-last');
    await runThroughTarget(path, 'r2', [withEditedContent(sessions[0]!, 'edit 2')], 'since-last');
    const rows = await withReadOnlyWarehouse(path, (c) =>
      runQuery(
        c,
        `SELECT count(*)::INT AS n, max(CASE WHEN ordinal = 0 THEN content END) AS first
           FROM messages WHERE session_id = '${sessions[0]!.session.session_id}'`,
      ),
    );
    expect(rows.rows).toEqual([{ n: sessions[0]!.messages.length, first: 'edit 2' }]);
    expect(await state(path)).toMatchObject({ deferred: '3' });
  });

  /** The first sample session with a row group of messages, the first edited. */
  function large(): NormalizedSession {
    const base = sessions[0]!;
    const messages = Array.from({ length: WRITER_ROW_GROUP_ROWS }, (_, i) => ({
      ...base.messages[0]!,
      message_id: `m${i}`,
      archive_key: `cursor:${base.session.session_id}:m${i}`,
      ordinal: i,
    }));
    return withEditedContent({ ...base, messages }, 'edit large');
  }

  it('a run that writes a row group of rows merges at once and restarts the count', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await runThroughTarget(path, 'r0', sessions, 'since-last');
    await runThroughTarget(path, 'large', [large()], 'since-last');
    expect(await state(path)).toMatchObject({ deferred: '0', edited: 1 });
  });

  it('only a run of a row group of rows or more collects garbage before its closing checkpoint', async () => {
    const path = join(tempDir(), 'w.duckdb');
    const gc = vi.fn();
    vi.stubGlobal('gc', gc);
    try {
      await runThroughTarget(path, 'r0', sessions, 'since-last');
      await runThroughTarget(path, 'r1', [withEditedContent(sessions[0]!, 'edit 1')], 'since-last');
      expect(gc).not.toHaveBeenCalled();
      await runThroughTarget(path, 'large', [large()], 'since-last');
      expect(gc).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a run whose deferral count cannot be read still closes and checkpoints its rows, merging as usual', async () => {
    const path = join(tempDir(), 'w.duckdb');
    await runThroughTarget(path, 'r0', sessions, 'since-last');
    const target = await DuckDbTarget.open(path);
    await target.beginRun({ runId: 'r1', startedAtMs: 0, mode: 'since-last', optionsDigest: 'o' });
    await target.loadBatch([another(1)]);
    const warehouse = Reflect.get(target, 'warehouse') as { connection: DuckDBConnection };
    await warehouse.connection.run('DROP TABLE etl_meta');
    await expect(target.close()).resolves.toBeUndefined();
    expect(existsSync(`${path}.wal`)).toBe(false);
    const rows = await withReadOnlyWarehouse(path, (c) =>
      runQuery(c, `SELECT count(*)::INT AS edited FROM messages WHERE content = 'edit 1'`),
    );
    expect(rows.rows).toEqual([{ edited: 1 }]);
  });
});
