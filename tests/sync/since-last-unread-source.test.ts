/**
 * `--since-last` with a source that cannot be read and does not fail the run (an SDK agent store
 * `index.db` without its tables, a damaged workspace DB): the sources that were read advance in the
 * ledger, the unread one keeps its stored row and sessions, and only it is read again next time.
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../fixtures/bench/seeded-random.js';
import { streamPayload, writeSdkIndexDb } from '../../fixtures/sdk/sdk-index-db.js';
import { applySourceChange, buildSourceWorld, type SourceWorld } from '../../fixtures/sync/source-world.js';
import type { RunSummary } from '../../src/sync/run-state.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';
import { archivedStates, runInProcess } from '../helpers/sync-convergence.js';

const AGENTS = ['agent-0d1e0000-0000-4000-8000-0000000000a1', 'agent-0d1e0000-0000-4000-8000-0000000000a2'];

function writeAgents(path: string, count: number): void {
  const agents = AGENTS.slice(0, count);
  writeSdkIndexDb(path, {
    withUsage: true,
    agents: agents.map((agent_id, i) => ({
      agent_id,
      workspace_ref: '/home/dev/sdk',
      status: 'COMPLETED',
      name: `job ${i}`,
      created_at: '2026-07-03T08:00:00.000Z',
      updated_at: `2026-07-03T08:0${i + 1}:00.000Z`,
    })),
    runs: agents.map((agent_id, i) => ({
      run_id: `run-${i}`,
      agent_id,
      turn_number: 1,
      status: 'FINISHED',
      model: 'composer-2.5',
      result: `Done ${i}.`,
      created_at: '2026-07-03T08:00:00.000Z',
      updated_at: '2026-07-03T08:05:00.000Z',
    })),
    events: agents.map((_, i) => ({
      run_id: `run-${i}`,
      seq: 1,
      created_at: '2026-07-03T08:01:00.000Z',
      payload_json: streamPayload({ type: 'assistant', text: `Done ${i}.` }),
    })),
  });
}

/** An index.db that opens as a database without the `agents` table. */
function damage(path: string): void {
  writeFileSync(path, '');
}

interface Fixture {
  dir: string;
  world: SourceWorld;
  sdkIndex: string;
  warehouse: string;
}

function fixture(): Fixture {
  const dir = tempDir('etl-unread-');
  const world = buildSourceWorld(join(dir, 'sources'));
  const sdkIndex = join(world.storeRoot, 'projects', 'home-dev-sdk', 'sdk-agent-store', '0f3a9c', 'index.db');
  mkdirSync(dirname(sdkIndex), { recursive: true });
  return { dir, world, sdkIndex, warehouse: join(dir, 'incremental.duckdb') };
}

const run = (
  f: Fixture,
  sinceLast: boolean,
  warehouse = f.warehouse,
  kind: 'duckdb' | 'parquet' = 'duckdb',
): Promise<RunSummary> =>
  runInProcess({ userDir: f.world.userDir, storeRoot: f.world.storeRoot }, warehouse, sinceLast, kind);

const unreadable = (summary: RunSummary) =>
  summary.diagnostics.filter((d) => d.code === 'SOURCE_UNREADABLE').map((d) => d.details);

async function presence(warehouse: string): Promise<Record<string, boolean>> {
  const rows = await queryRows(warehouse, 'SELECT session_id, present_in_source FROM etl_session_state');
  return Object.fromEntries(rows.map((r) => [String(r.session_id), r.present_in_source === true]));
}

/** The incremental warehouse holds what a fresh full load of the same sources holds. */
async function expectConverged(f: Fixture, step: string): Promise<void> {
  const fresh = join(f.dir, `fresh-${step}.duckdb`);
  await run(f, false, fresh);
  const [kept, full] = await archivedStates([f.warehouse, fresh]);
  expect(kept).toEqual(full);
}

/** A readable source changes while the unread one stays unread: both are read, the former advances. */
async function changeReadableSource(f: Fixture): Promise<void> {
  applySourceChange(f.world, 'transcript-append', new SeededRandom(7));
  const summary = await run(f, true);
  expect(summary.counts.sourcesSkippedUnchanged).toBe(summary.counts.sourcesSeen - 2);
  expect(summary.counts.sessionsMarkedAbsent).toBe(0);
  expect(summary.payloadBytesRead).toBeGreaterThan(0);
}

/** A `--since-last` over unchanged readable sources reads only the unread one. */
function expectOnlyUnreadRetried(summary: RunSummary): void {
  expect(summary.status).toBe('committed');
  expect(summary.counts.sourcesSkippedUnchanged).toBe(summary.counts.sourcesSeen - 1);
  expect(summary.payloadBytesRead).toBe(0);
  expect(summary.counts.sessionsMarkedAbsent).toBe(0);
  expect(unreadable(summary)).toEqual([expect.objectContaining({ sourceKind: 'sdk-store' })]);
}

describe('--since-last with a source it cannot read', { timeout: 120_000 }, () => {
  it('an index.db unreadable from the first run: the rest advances; repaired, its agents load', async () => {
    const f = fixture();
    damage(f.sdkIndex);
    const first = await run(f, false);
    expect(first.status).toBe('committed');
    expect(unreadable(first)).toEqual([
      expect.objectContaining({ sourceKind: 'sdk-store', reason: 'no-agents-table' }),
    ]);
    // Every source but the unread one has a ledger row.
    const sources = await queryRows(f.warehouse, 'SELECT kind FROM etl_sources WHERE present');
    expect(sources.length).toBe(first.counts.sourcesSeen - 1);
    expect(sources.map((s) => s.kind)).not.toContain('sdk-agent-index');

    expectOnlyUnreadRetried(await run(f, true));
    await changeReadableSource(f);
    expectOnlyUnreadRetried(await run(f, true));

    writeAgents(f.sdkIndex, 2);
    const repaired = await run(f, true);
    expect(unreadable(repaired)).toEqual([]);
    expect(repaired.counts.sessionsInserted).toBe(2);
    expect(repaired.counts.sourcesSkippedUnchanged).toBe(repaired.counts.sourcesSeen - 1);
    await expectConverged(f, 'repaired');
    // Now every source is vouched for: a no-op reads nothing.
    const noop = await run(f, true);
    expect(noop.counts.sourcesSkippedUnchanged).toBe(noop.counts.sourcesSeen);
  });

  it('an index.db damaged after a load keeps its agents present and its ledger row as stored', async () => {
    const f = fixture();
    writeAgents(f.sdkIndex, 1);
    await run(f, false);
    const rowSql = `SELECT fingerprint_digest, last_seen_run, present FROM etl_sources WHERE kind = 'sdk-agent-index'`;
    const stored = await queryRows(f.warehouse, rowSql);
    expect(stored).toHaveLength(1);
    expect((await presence(f.warehouse))[AGENTS[0]!]).toBe(true);

    damage(f.sdkIndex);
    expectOnlyUnreadRetried(await run(f, true));
    await changeReadableSource(f);
    expectOnlyUnreadRetried(await run(f, true));
    expect(await queryRows(f.warehouse, rowSql)).toEqual(stored);
    expect((await presence(f.warehouse))[AGENTS[0]!]).toBe(true);
    const members = await queryRows(
      f.warehouse,
      `SELECT count(*)::INTEGER AS n FROM etl_session_sources WHERE session_id = '${AGENTS[0]}'`,
    );
    expect(members[0]!.n).toBe(1);

    writeAgents(f.sdkIndex, 2);
    const repaired = await run(f, true);
    expect(unreadable(repaired)).toEqual([]);
    expect(repaired.counts.sessionsInserted).toBe(1);
    await expectConverged(f, 'repaired');
  });

  it('an index.db replaced by a directory is unread at discovery, not vanished', async () => {
    const f = fixture();
    writeAgents(f.sdkIndex, 1);
    await run(f, false);
    rmSync(f.sdkIndex);
    mkdirSync(f.sdkIndex);
    for (const step of [1, 2]) {
      if (step === 2) applySourceChange(f.world, 'transcript-append', new SeededRandom(7));
      const summary = await run(f, true);
      expect(unreadable(summary)).toEqual([expect.objectContaining({ reason: 'not-a-regular-file' })]);
      expect(summary.counts.sessionsMarkedAbsent).toBe(0);
      expect((await presence(f.warehouse))[AGENTS[0]!]).toBe(true);
    }
    const rows = await queryRows(
      f.warehouse,
      `SELECT present FROM etl_sources WHERE kind = 'sdk-agent-index'`,
    );
    expect(rows).toEqual([{ present: true }]);
    rmSync(f.sdkIndex, { recursive: true });
    writeAgents(f.sdkIndex, 2);
    expect((await run(f, true)).counts.sessionsInserted).toBe(1);
    await expectConverged(f, 'directory-repaired');
  });

  it('a damaged workspace DB is re-read alone until repaired, its sessions staying present', async () => {
    const f = fixture();
    writeAgents(f.sdkIndex, 1);
    await run(f, false);
    const before = await presence(f.warehouse);
    const workspaceDb = join(f.world.userDir, 'workspaceStorage');
    const [db] = readdirSync(workspaceDb).map((d) => join(workspaceDb, d, 'state.vscdb'));
    const saved = join(f.dir, 'saved.vscdb');
    copyFileSync(db!, saved);
    writeFileSync(db!, 'this is not a database, it is a damaged file of some length');

    for (const step of [1, 2]) {
      if (step === 2) await changeReadableSource(f);
      const summary = await run(f, true);
      expect(summary.status, `step ${step}`).toBe('committed');
      expect(unreadable(summary)).toEqual([
        expect.objectContaining({ sourceKind: 'composer', database: 'workspace' }),
      ]);
      expect(summary.counts.sourcesSkippedUnchanged).toBe(summary.counts.sourcesSeen - 1);
      expect(summary.counts.sessionsMarkedAbsent).toBe(0);
      expect(await presence(f.warehouse)).toEqual(before);
    }

    copyFileSync(saved, db!);
    const repaired = await run(f, true);
    expect(unreadable(repaired)).toEqual([]);
    await expectConverged(f, 'workspace-repaired');
  });

  it('parquet: the same rule holds for the dataset target', async () => {
    const f = fixture();
    const dataset = join(f.dir, 'dataset');
    writeAgents(f.sdkIndex, 1);
    await run(f, false, dataset, 'parquet');
    damage(f.sdkIndex);
    expectOnlyUnreadRetried(await run(f, true, dataset, 'parquet'));
    applySourceChange(f.world, 'transcript-append', new SeededRandom(7));
    const changed = await run(f, true, dataset, 'parquet');
    expect(changed.counts.sourcesSkippedUnchanged).toBe(changed.counts.sourcesSeen - 2);
    expectOnlyUnreadRetried(await run(f, true, dataset, 'parquet'));
    writeAgents(f.sdkIndex, 2);
    const repaired = await run(f, true, dataset, 'parquet');
    expect(unreadable(repaired)).toEqual([]);
    expect(repaired.counts.sessionsInserted).toBe(1);
    expect(repaired.counts.sessionsMarkedAbsent).toBe(0);
    const noop = await run(f, true, dataset, 'parquet');
    expect(noop.counts.sourcesSkippedUnchanged).toBe(noop.counts.sourcesSeen);
  });
});
