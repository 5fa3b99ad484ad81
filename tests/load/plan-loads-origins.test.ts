import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DuckDbTarget } from '../../src/load/duckdb/duckdb-target.js';
import { runQuery, withReadOnlyWarehouse } from '../../src/load/duckdb/read-only-query.js';
import { ParquetTarget } from '../../src/load/parquet/parquet-target.js';
import { withReadOnlyTarget } from '../../src/load/read-only-target.js';
import { decideAcrossOrigins } from '../../src/load/replace-decision.js';
import type { WarehouseTarget } from '../../src/load/target.js';
import { keptSessionDiagnostics } from '../../src/sync/load-diagnostics.js';
import { emptyCounts } from '../../src/sync/run-counts.js';
import type { NormalizedSession } from '../../src/transform/normalized-session.js';
import { computeViewDigest } from '../../src/transform/view-digest.js';
import { originView } from '../helpers/origin-views.js';
import { tempDir } from '../helpers/run-cli.js';
import { sampleSessions } from '../helpers/sample-sessions.js';

const ROWS_SQL = `SELECT 'sessions' AS t, rowid AS r, md5(x::VARCHAR) AS h FROM sessions x
  UNION ALL SELECT 'messages', rowid, md5(x::VARCHAR) FROM messages x
  UNION ALL SELECT 'source_instances', rowid, md5(x::VARCHAR) FROM source_instances x ORDER BY t, r`;

async function load(path: string, batch: NormalizedSession[]) {
  const target = await DuckDbTarget.open(path);
  try {
    return await target.loadBatch(batch);
  } finally {
    await target.close();
  }
}

const snapshot = (path: string) =>
  withReadOnlyWarehouse(path, async (c) => (await runQuery(c, ROWS_SQL)).rows);

describe('the same session from two origins (decideLoad through the DuckDB target)', () => {
  let session: NormalizedSession;
  const T = 1_700_000_000_000;
  beforeAll(async () => {
    // The sample session with the most messages, so prefixes are proper.
    session = (await sampleSessions()).sort((a, b) => b.messages.length - a.messages.length)[0]!;
    expect(session.messages.length).toBeGreaterThan(2);
    expect(session.session.fidelity).toBe('complete');
  });
  const fresh = (): string => join(tempDir(), 'team.duckdb');

  it('origin is provenance: the digest is the same from either origin', () => {
    const a = originView(session, 'laptop-a');
    const b = originView(session, 'laptop-b');
    expect(a.session.view_digest).toBe(b.session.view_digest);
    expect(computeViewDigest(a)).toBe(a.session.view_digest);
  });

  it('identical views → nothing written, the archived origin stays', async () => {
    const path = fresh();
    await load(path, [originView(session, 'laptop-a')]);
    const before = await snapshot(path);
    const [result] = await load(path, [originView(session, 'laptop-b')]);
    expect(result!.action).toBe('unchanged');
    expect(await snapshot(path)).toEqual(before);
    const origins = await withReadOnlyWarehouse(
      path,
      async (c) =>
        (
          await runQuery(
            c,
            'SELECT DISTINCT origin FROM source_instances UNION ALL SELECT origin FROM sessions',
          )
        ).rows,
    );
    expect(origins.map((r) => r.origin)).toEqual(['laptop-a', 'laptop-a']);
  });

  it('complete over partial, both ways', async () => {
    const partial = (origin: string) => {
      const v = originView(session, origin, { content: 'partial copy' });
      const row = { ...v.session, fidelity: 'partial' as const, source: 'workspace-fallback' as const };
      return { ...v, session: { ...row, view_digest: computeViewDigest({ ...v, session: row }) } };
    };
    const first = fresh();
    await load(first, [partial('laptop-a')]);
    expect((await load(first, [originView(session, 'laptop-b', { updatedAt: T })]))[0]!.action).toBe(
      'replace',
    );
    const second = fresh();
    await load(second, [originView(session, 'laptop-a')]);
    const before = await snapshot(second);
    expect((await load(second, [partial('laptop-b')]))[0]!.action).toBe('keep-complete');
    expect(await snapshot(second)).toEqual(before);
  });

  it('two complete views: the newer wins when it extends the other (same message IDs as a prefix)', async () => {
    const path = fresh();
    await load(path, [originView(session, 'laptop-a', { keep: 2, updatedAt: T })]);
    const [grown] = await load(path, [originView(session, 'laptop-b', { updatedAt: T + 1 })]);
    expect(grown).toMatchObject({ action: 'replace', originRule: 'replace' });
    const before = await snapshot(path);
    const results = await load(path, [originView(session, 'laptop-a', { keep: 2, updatedAt: T })]);
    expect(results[0]).toMatchObject({ action: 'keep-complete', originRule: 'keep-newer' });
    expect(keptSessionDiagnostics(results).map((d) => d.code)).toEqual(['ORIGIN_VIEW_KEPT_NEWER']);
    expect(await snapshot(path)).toEqual(before);
    const stored = await withReadOnlyWarehouse(
      path,
      async (c) => (await runQuery(c, 'SELECT origin, message_count FROM sessions')).rows,
    );
    expect(stored).toEqual([{ origin: 'laptop-b', message_count: session.messages.length }]);
  });

  it('two complete views that diverge (or an extension that is older) → explicit ambiguity, archived rows kept', async () => {
    const path = fresh();
    await load(path, [originView(session, 'laptop-a', { keep: 2, updatedAt: T })]);
    const before = await snapshot(path);
    const diverged = await load(path, [
      originView(session, 'laptop-b', { firstId: 'other-first', updatedAt: T + 5 }),
    ]);
    expect(diverged[0]).toMatchObject({ action: 'keep-ambiguous', originRule: 'diverged' });
    expect(keptSessionDiagnostics(diverged).map((d) => d.code)).toEqual(['ORIGIN_VIEWS_DIVERGED']);
    const older = await load(path, [originView(session, 'laptop-b', { updatedAt: T - 5 })]);
    expect(older[0]).toMatchObject({ action: 'keep-ambiguous', originRule: 'diverged' });
    expect(await snapshot(path)).toEqual(before);
  });

  it('the same origin keeps the single-machine rule: a changed complete view replaces', async () => {
    const path = fresh();
    await load(path, [originView(session, 'laptop-a', { keep: 2, updatedAt: T })]);
    const [result] = await load(path, [
      originView(session, 'laptop-a', { firstId: 'other-first', updatedAt: T - 5 }),
    ]);
    expect(result!.action).toBe('replace');
    expect(result!.originRule).toBeUndefined();
  });

  it('decideAcrossOrigins: ties and unknown times are never a pick', () => {
    const ids = ['a', 'b'];
    expect(
      decideAcrossOrigins({ updatedAtMs: T, messageIds: ids }, { updatedAtMs: T, messageIds: ids }),
    ).toBe('diverged');
    expect(
      decideAcrossOrigins({ updatedAtMs: null, messageIds: ['a'] }, { updatedAtMs: T, messageIds: ids }),
    ).toBe('diverged');
    expect(
      decideAcrossOrigins({ updatedAtMs: T, messageIds: ['a'] }, { updatedAtMs: T + 1, messageIds: ids }),
    ).toBe('replace');
  });

  it('the Parquet dataset applies the same rules and carries origin in its files', async () => {
    const root = join(tempDir(), 'team');
    const publish = async (batch: NormalizedSession[], n: number) => {
      const target: WarehouseTarget = await ParquetTarget.open(root);
      try {
        const runId = `20260101T00000${n}000Z-origin0${n}`;
        await target.beginRun({ runId, startedAtMs: T, mode: 'full', optionsDigest: 'x', origin: 'team' });
        const results = await target.loadBatch(batch);
        await target.finishRun(runId, 'committed', T + 1, emptyCounts());
        return results;
      } finally {
        await target.close();
      }
    };
    await publish([originView(session, 'laptop-a', { keep: 2, updatedAt: T })], 1);
    expect(
      (await publish([originView(session, 'laptop-b', { firstId: 'x', updatedAt: T + 1 })], 2))[0]!
        .originRule,
    ).toBe('diverged');
    expect((await publish([originView(session, 'laptop-b', { updatedAt: T + 1 })], 3))[0]!.originRule).toBe(
      'replace',
    );
    const rows = await withReadOnlyTarget(
      { kind: 'parquet', path: root },
      async (c) =>
        (
          await runQuery(
            c,
            "SELECT (SELECT origin FROM sessions) AS s, (SELECT string_agg(DISTINCT origin, ',') FROM source_instances) AS i, (SELECT string_agg(origin, ',' ORDER BY run_id) FROM etl_runs) AS r",
          )
        ).rows,
    );
    expect(rows).toEqual([{ s: 'laptop-b', i: 'laptop-b', r: 'team,team,team' }]);
  });
});
