import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DuckDbTarget } from '../../../src/load/duckdb/duckdb-target.js';
import { runQuery, withReadOnlyWarehouse } from '../../../src/load/duckdb/read-only-query.js';
import { keptSessionDiagnostics } from '../../../src/sync/load-diagnostics.js';
import type { NormalizedSession } from '../../../src/transform/normalized-session.js';
import { tempDir } from '../../helpers/run-cli.js';
import { sampleSessions, withEditedContent } from '../../helpers/sample-sessions.js';

const ROWS_SQL = `SELECT 'sessions' AS t, rowid AS r, session_id AS s, md5(x::VARCHAR) AS h FROM sessions x
  UNION ALL SELECT 'messages', rowid, session_id, md5(x::VARCHAR) FROM messages x
  UNION ALL SELECT 'tool_calls', rowid, session_id, md5(x::VARCHAR) FROM tool_calls x
  UNION ALL SELECT 'source_instances', rowid, session_id, md5(x::VARCHAR) FROM source_instances x
  ORDER BY t, r`;

type Snapshot = { t: string; r: number; s: string; h: string }[];

async function snapshot(path: string): Promise<Snapshot> {
  return withReadOnlyWarehouse(path, async (c) => (await runQuery(c, ROWS_SQL)).rows as unknown as Snapshot);
}

async function load(path: string, sessions: NormalizedSession[]) {
  const target = await DuckDbTarget.open(path);
  try {
    return await target.loadBatch(sessions);
  } finally {
    await target.close();
  }
}

describe('whole-session replace rules (decideLoad through the DuckDB target)', () => {
  let sessions: NormalizedSession[];
  beforeAll(async () => {
    sessions = await sampleSessions();
  });
  const fresh = (): string => join(tempDir(), 'w.duckdb');

  it('not archived → insert the whole session', async () => {
    const path = fresh();
    const results = await load(path, sessions);
    expect(results.map((r) => r.action)).toEqual(['insert', 'insert', 'insert']);
    const rows = await snapshot(path);
    const first = sessions[0]!;
    expect(rows.filter((r) => r.t === 'messages' && r.s === first.session.session_id)).toHaveLength(
      first.messages.length,
    );
    expect(rows.filter((r) => r.t === 'tool_calls').length).toBe(
      sessions.reduce((n, s) => n + s.toolCalls.length, 0),
    );
  });

  it('archived and identical → zero writes to session, message, tool-call and relationship rows (rowids and checksums untouched)', async () => {
    const path = fresh();
    await load(path, sessions);
    const before = await snapshot(path);
    const results = await load(path, sessions);
    expect(results.every((r) => r.action === 'unchanged')).toBe(true);
    expect(await snapshot(path)).toEqual(before);
  });

  it('complete view that differs → replace the whole session (delete + insert of all its rows); other sessions untouched', async () => {
    const path = fresh();
    await load(path, sessions);
    const before = await snapshot(path);
    const target = sessions[1]!;
    const changed = withEditedContent(target, 'edited first message');
    const results = await load(path, [changed]);
    expect(results).toEqual([{ sessionId: target.session.session_id, action: 'replace' }]);
    const after = await snapshot(path);
    // DuckDB compacts rowids after a delete, so untouched rows are compared by content hash.
    const others = (rows: Snapshot) =>
      rows
        .filter((r) => r.s !== target.session.session_id)
        .map((r) => `${r.t}:${r.h}`)
        .sort();
    expect(others(after)).toEqual(others(before));
    const mine = after.filter((r) => r.s === target.session.session_id);
    const mineBefore = before.filter((r) => r.s === target.session.session_id);
    expect(mine).toHaveLength(mineBefore.length);
    const sessionRow = (rows: Snapshot) => rows.find((r) => r.t === 'sessions')!.h;
    expect(sessionRow(mine)).not.toBe(sessionRow(mineBefore));
    const content = await withReadOnlyWarehouse(path, (c) =>
      runQuery(
        c,
        `SELECT content FROM messages WHERE ordinal = 0 AND session_id = '${target.session.session_id}'`,
      ),
    );
    expect(content.rows[0]!.content).toBe('edited first message');
  });

  it('never gate on a maximum timestamp: a changed message carrying an older time still replaces the session', async () => {
    const path = fresh();
    await load(path, sessions);
    const base = sessions[0]!;
    const older = withEditedContent(base, 'inserted earlier turn');
    older.messages[0]!.timestamp = 0;
    const reDigested = withEditedContent(older, 'inserted earlier turn');
    const results = await load(path, [reDigested]);
    expect(results[0]!.action).toBe('replace');
  });

  it('partial (workspace-fallback) view over an archived complete session → archived session kept unchanged, with a diagnostic', async () => {
    const path = fresh();
    await load(path, sessions);
    const before = await snapshot(path);
    const partial = withEditedContent(sessions[0]!, 'degraded', {
      fidelity: 'partial',
      source: 'workspace-fallback',
      resolution_state: 'partial',
    });
    const results = await load(path, [partial]);
    expect(results[0]!.action).toBe('keep-complete');
    expect(await snapshot(path)).toEqual(before);
    const [diag] = keptSessionDiagnostics(results);
    expect(diag).toMatchObject({
      code: 'PARTIAL_VIEW_KEPT_COMPLETE',
      sessionId: sessions[0]!.session.session_id,
    });
  });

  it('partial over absent → load it; partial over partial → load it', async () => {
    const path = fresh();
    const partial = (content: string) =>
      withEditedContent(sessions[0]!, content, {
        fidelity: 'partial',
        source: 'workspace-fallback',
        resolution_state: 'partial',
      });
    expect((await load(path, [partial('first partial')]))[0]!.action).toBe('insert');
    expect((await load(path, [partial('second partial')]))[0]!.action).toBe('replace');
    const content = await withReadOnlyWarehouse(path, (c) =>
      runQuery(c, 'SELECT content FROM messages WHERE ordinal = 0'),
    );
    expect(content.rows[0]!.content).toBe('second partial');
  });

  it('ambiguity row over an archived session → keep the archived rows and record the ambiguity', async () => {
    const path = fresh();
    await load(path, sessions);
    const before = await snapshot(path);
    const base = sessions[2]!;
    const ambiguous = withEditedContent(base, 'divergent', { resolution_state: 'ambiguous' });
    const results = await load(path, [ambiguous]);
    expect(results[0]!.action).toBe('keep-ambiguous');
    expect(await snapshot(path)).toEqual(before);
    expect(keptSessionDiagnostics(results)[0]!.code).toBe('AMBIGUOUS_VIEW_KEPT_ARCHIVED');
  });
});
