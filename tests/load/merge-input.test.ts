/**
 * Merge inputs an older build wrote (schema 3: fixtures/duckdb/pre-identity-warehouse.ts and
 * fixtures/parquet/pre-identity-dataset.ts): read without a byte of the input changing, verified
 * against the digests they store, loaded in this build's terms; a re-merge writes nothing.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePreIdentityWarehouse } from '../../fixtures/duckdb/pre-identity-warehouse.js';
import { writePreIdentityDataset } from '../../fixtures/parquet/pre-identity-dataset.js';
import { addUnaffectedSession, buildIdentityCorpus } from '../../fixtures/store/identity-corpus.js';
import { downgradeDuckDb } from '../../fixtures/subagent/schema-v3-warehouse.js';
import { openWarehouse } from '../../src/load/duckdb/duckdb-warehouse.js';
import { storedSessionProblems } from '../../src/load/duckdb/stored-session-check.js';
import { readStoredSessions, storedSessionRanges } from '../../src/load/duckdb/stored-sessions.js';
import { boundInputMemory, openMergeInput } from '../../src/load/merge-input.js';
import type { TargetLocation } from '../../src/load/open-target.js';
import { withReadOnlyTarget } from '../../src/load/read-only-target.js';
import { writeOriginWarehouse } from '../helpers/origin-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';
import { sampleSessions, withEditedContent } from '../helpers/sample-sessions.js';
import { runInProcess } from '../helpers/sync-convergence.js';
import { runThroughTarget } from '../helpers/target-run.js';
import { contentFileDigests, merge } from '../helpers/team-merge.js';

/** Every file under `root` (or `root` itself): its relative path, mode and SHA-256. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string): void => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      out[`${relative(root, path)}/`] = stat.mode.toString(8);
      for (const name of readdirSync(path)) walk(join(path, name));
    } else
      out[relative(root, path)] =
        `${stat.mode.toString(8)} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
  };
  walk(root);
  return out;
}

/** What a write would change: the DuckDB file's rows by rowid, the Parquet state's content files. */
async function written(location: TargetLocation): Promise<unknown> {
  if (location.kind === 'parquet') return contentFileDigests(location.path);
  return withReadOnlyTarget(location, async (c) =>
    (
      await c.runAndReadAll(
        'SELECT rowid, md5(x::VARCHAR) FROM sessions x UNION ALL SELECT rowid, md5(x::VARCHAR) FROM messages x ORDER BY ALL',
      )
    ).getRows(),
  );
}

/** Every archived session of the target, with what its rows disagree with. */
async function targetProblems(location: TargetLocation): Promise<Record<string, string[]>> {
  return withReadOnlyTarget(location, async (c) => {
    const out: Record<string, string[]> = {};
    for (const range of await storedSessionRanges(c))
      for (const stored of await readStoredSessions(c, range))
        out[stored.session.session_id] = storedSessionProblems(stored);
    return out;
  });
}

describe('etl merge of inputs an older build wrote', () => {
  let dir: string;
  let oldDuckDb: TargetLocation;
  let oldDataset: TargetLocation;
  let previousTmp: string | undefined;
  beforeAll(async () => {
    dir = tempDir('etl-merge-older-');
    const corpus = buildIdentityCorpus(join(dir, 'sources'));
    addUnaffectedSession(corpus);
    const load = (warehouse: string) => runInProcess(corpus, warehouse, false);
    mkdirSync(join(dir, 'machines', 'duckdb'), { recursive: true });
    oldDuckDb = { kind: 'duckdb', path: join(dir, 'machines', 'duckdb', 'old.duckdb') };
    oldDataset = { kind: 'parquet', path: join(dir, 'machines', 'dataset') };
    await writePreIdentityWarehouse(corpus, oldDuckDb.path, join(dir, 'build-a'), load);
    await writePreIdentityDataset(corpus, oldDataset.path, join(dir, 'build-b'), load);
    // The migrated copy's private temp dir is made here, so the test sees it removed.
    previousTmp = process.env.TMPDIR;
    process.env.TMPDIR = join(dir, 'tmp');
    mkdirSync(process.env.TMPDIR, { recursive: true });
  }, 300_000);
  afterAll(() => {
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
  });

  for (const [name, input, teamKind] of [
    ['a schema 3 DuckDB file', () => oldDuckDb, 'parquet'],
    ['a schema 3 Parquet dataset', () => oldDataset, 'duckdb'],
  ] as const) {
    it(`${name} merges into a ${teamKind} team target; the input is byte-unchanged; a re-merge writes nothing`, async () => {
      const location = input();
      const root = location.kind === 'duckdb' ? join(location.path, '..') : location.path;
      const before = tree(root);
      const opened = await openMergeInput(location);
      const count = opened.digests.size;
      expect(opened.schemaVersion).toBe(3);
      opened.close();
      expect(count).toBeGreaterThan(3);
      const team: TargetLocation = {
        kind: teamKind,
        path: join(dir, `team-${location.kind}${teamKind === 'duckdb' ? '.duckdb' : ''}`),
      };
      const first = await merge(team, [location]);
      expect(first).toMatchObject({ sessionsRead: count, sessionsRefused: 0, status: 'committed' });
      expect(first.counts.sessionsInserted).toBe(count);
      // The team's rows carry this build's digests: each agrees with its rows.
      const problems = await targetProblems(team);
      expect(Object.keys(problems)).toHaveLength(count);
      expect(Object.values(problems).flat()).toEqual([]);
      const state = await written(team);
      const again = await merge(team, [location]);
      expect(again).toMatchObject({ inputsSkippedUnchanged: 1, sessionsRead: 0 });
      expect(await written(team)).toEqual(state);
      expect(tree(root)).toEqual(before);
      expect(readdirSync(process.env.TMPDIR!).filter((n) => n.startsWith('cursor-etl-'))).toEqual([]);
    }, 120_000);
  }

  it('a forged row of a schema 3 input is refused: its migration recomputes digests, the check does not', async () => {
    const forged = join(dir, 'forged.duckdb');
    copyFileSync(oldDuckDb.path, forged);
    const instance = await DuckDBInstance.create(forged);
    const connection = await instance.connect();
    const victim = String(
      (await connection.runAndReadAll('SELECT min(session_id) FROM messages')).getRows()[0]![0],
    );
    await connection.run(`UPDATE messages SET content = 'forged' WHERE session_id = '${victim}'`);
    connection.closeSync();
    instance.closeSync();
    const team: TargetLocation = { kind: 'duckdb', path: join(dir, 'team-forged.duckdb') };
    const summary = await merge(team, [{ kind: 'duckdb', path: forged }]);
    expect(summary.sessionsRefused).toBe(1);
    expect(summary.diagnostics.filter((d) => d.code === 'MERGE_INPUT_DIGEST_MISMATCH')).toEqual([
      expect.objectContaining({ sessionId: victim, details: { input: 0, check: 'digest' } }),
    ]);
    expect(Object.keys(await targetProblems(team))).not.toContain(victim);
  }, 120_000);

  it('a schema 3 file whose digests are not of its rows (fixtures/subagent) is refused whole and not advanced', async () => {
    const path = join(dir, 'placeholder-digests.duckdb');
    await writeOriginWarehouse({ kind: 'duckdb', path }, await sampleSessions(), 'ana');
    await downgradeDuckDb(path, []);
    const team: TargetLocation = { kind: 'duckdb', path: join(dir, 'team-placeholder.duckdb') };
    const first = await merge(team, [{ kind: 'duckdb', path }]);
    expect(first).toMatchObject({ sessionsRead: 3, sessionsRefused: 3 });
    expect(first.counts.sessionsInserted).toBe(0);
    const again = await merge(team, [{ kind: 'duckdb', path }]);
    expect(again).toMatchObject({ inputsSkippedUnchanged: 0, sessionsRefused: 3 });
  }, 120_000);
});

/** The connection's `memory_limit` in bytes, from DuckDB's display form (e.g. `76.2 MiB`). */
async function poolBytes(connection: DuckDBConnection): Promise<number> {
  const reader = await connection.runAndReadAll("SELECT current_setting('memory_limit') AS limit_text");
  const text = String(reader.getRowObjects()[0]!.limit_text);
  const match = /^([\d.]+) (KiB|MiB|GiB)$/.exec(text);
  expect(match, text).not.toBeNull();
  return (
    Number(match![1]) * { KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 }[match![2] as 'KiB' | 'MiB' | 'GiB']
  );
}

describe("a merge input's read pool", () => {
  it('is bounded to a base plus room for the largest stored value, not DuckDB default of most of RAM', async () => {
    const [session] = await sampleSessions();
    const path = join(tempDir(), 'input.duckdb');
    await runThroughTarget(path, 'r1', [withEditedContent(session!, 'x'.repeat(4_000_000))]);
    const warehouse = await openWarehouse(path, 'read');
    try {
      // Without the writer's record, the pool is fitted from the segment statistics.
      await boundInputMemory(warehouse.connection, null);
      const bytes = await poolBytes(warehouse.connection);
      // 64 MB plus three copies of the 4 MB value; far below the default on any machine.
      expect(bytes).toBeGreaterThan(64_000_000 + 3 * 4_000_000 - 1024 ** 2);
      expect(bytes).toBeLessThan(100_000_000);
    } finally {
      warehouse.close();
    }
  });

  it("takes the largest value the input's writer recorded, without reading its statistics", async () => {
    const [session] = await sampleSessions();
    const path = join(tempDir(), 'input.duckdb');
    await runThroughTarget(path, 'r1', [session!]);
    const warehouse = await openWarehouse(path, 'read');
    try {
      // A recorded 40 MB value the rows do not hold: only the record can give the pool its room.
      await boundInputMemory(warehouse.connection, new Map([['largest_value_bytes', '40000000']]));
      const bytes = await poolBytes(warehouse.connection);
      expect(bytes).toBeGreaterThan(64_000_000 + 3 * 40_000_000 - 1024 ** 2);
      expect(bytes).toBeLessThan(200_000_000);
    } finally {
      warehouse.close();
    }
  });
});
