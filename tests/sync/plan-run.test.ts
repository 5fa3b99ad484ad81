import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeAiCodeTracking } from '../../fixtures/code-tracking/ai-code-tracking-db.js';
import { buildSampleCorpus, SAMPLE_COMPOSERS } from '../../fixtures/sample/sample-corpus.js';
import { buildSourceWorld } from '../../fixtures/sync/source-world.js';
import { ComposerAdapter } from '../../src/extract/composer/composer-adapter.js';
import { DEFAULT_READ_LIMITS } from '../../src/extract/limits/read-limits.js';
import { targetOpener } from '../../src/load/open-target.js';
import type { WarehouseTarget } from '../../src/load/target.js';
import { beginRun } from '../../src/sync/begin-run.js';
import { discoverSources } from '../../src/sync/catalog-sources.js';
import { planRun } from '../../src/sync/plan-run.js';
import { runPipeline } from '../../src/sync/run-pipeline.js';
import { createRunState, type RunOptions, type RunStart } from '../../src/sync/run-state.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { recordingTarget } from '../helpers/recording-target.js';
import { runRoots, tempDir } from '../helpers/run-cli.js';

let userDir: string;
let root: string;
const opened: RunStart[] = [];

function options(sinceLast: boolean): RunOptions {
  return {
    roots: { cursorUserDir: userDir, cursorStoreRoot: null, inputs: [], backups: [], carrier: 'live' },
    limits: DEFAULT_READ_LIMITS,
    sinceLast,
    preferredSource: 'composer',
    includeCrossWorkspaceSources: false,
  };
}

/** Begins a run on `target` and plans it, as the pipeline does. */
async function plan(sinceLast: boolean, target: WarehouseTarget) {
  const start = createRunState(options(sinceLast));
  opened.push(start);
  const discovery = discoverSources(start.adapters, start.options.roots, start.ctx);
  const run = await beginRun(start, target);
  return { run, plan: await planRun(run, discovery) };
}

beforeAll(() => {
  root = tempDir('etl-plan-');
  userDir = buildSampleCorpus(join(root, 'cursor')).userDir;
});

afterEach(() => {
  for (const start of opened.splice(0)) {
    for (const adapter of start.adapters) adapter.close();
    start.temp.dispose();
  }
});

describe('the plan step of a run', () => {
  it('plans every discovered source and session when the target keeps no ledger', async () => {
    const { run, plan: planned } = await plan(true, recordingTarget());
    expect(planned.classified.length).toBeGreaterThan(0);
    expect(planned.classified.every((c) => c.state === 'new')).toBe(true);
    const sessions = new Set(planned.entries.map((e) => e.occurrence.sessionId));
    expect(sessions).toEqual(new Set(SAMPLE_COMPOSERS.map((c) => c.id)));
    expect(run.counts).toMatchObject({ sourcesSeen: planned.classified.length, sourcesSkippedUnchanged: 0 });
    expect(run.progress.sourcesDone).toBe(run.progress.sourcesTotal);
    expect(run.progress.sourcesTotal).toBe(planned.classified.length);
  });

  it('--since-last after a committed run plans no session and counts every source as skipped', async () => {
    const open = await targetOpener({ kind: 'duckdb', path: join(root, 'warehouse.duckdb') });
    const full = await open();
    const first = await runPipeline(options(false), full).finally(() => full.close());
    expect(first.counts.sessionsInserted).toBe(SAMPLE_COMPOSERS.length);
    const target = await open();
    try {
      const { run, plan: planned } = await plan(true, target);
      expect(planned.entries).toEqual([]);
      expect(planned.classified.every((c) => c.state === 'unchanged')).toBe(true);
      expect(run.counts.sourcesSkippedUnchanged).toBe(run.counts.sourcesSeen);
      expect(run.progress.sourcesDone).toBe(run.progress.sourcesTotal);
    } finally {
      await target.close();
    }
  });

  it('tells the adapters the plan is final once, before the first session is hydrated', async () => {
    const calls: string[] = [];
    const final = vi
      .spyOn(ComposerAdapter.prototype, 'planFinal')
      .mockImplementation(() => calls.push('final'));
    const hydrate = ComposerAdapter.prototype.hydrate;
    const hydrated = vi.spyOn(ComposerAdapter.prototype, 'hydrate').mockImplementation(function (
      this: ComposerAdapter,
      ...args
    ) {
      calls.push('hydrate');
      return hydrate.apply(this, args);
    });
    try {
      const summary = await runPipeline(options(false), recordingTarget());
      expect(summary.counts.sessionsInserted).toBe(SAMPLE_COMPOSERS.length);
      expect(calls[0]).toBe('final');
      expect(calls.filter((c) => c === 'final')).toHaveLength(1);
      expect(calls.length).toBeGreaterThan(1);
    } finally {
      final.mockRestore();
      hydrated.mockRestore();
    }
  });
});

describe('sessions held by an unread source', () => {
  it('"plausible input never costs archived data": a session enriched by a now unreadable code-tracking DB keeps its archived view', async () => {
    const world = buildSourceWorld(join(tempDir('etl-held-'), 'sources'));
    const tracked = world.composers[0]!.id;
    const tracking = writeAiCodeTracking(world.storeRoot, {
      reduced: false,
      conversationId: tracked,
      orphanConversationId: 'orphan-conversation',
    });
    const warehouse = join(world.userDir, '..', 'w.duckdb');
    const run = () => runRoots(world.userDir, world.storeRoot, warehouse);
    const view = () =>
      queryRows(warehouse, `select view_digest from sessions where session_id = '${tracked}'`);
    expect(run().code).toBe(0);
    const archived = await view();
    writeFileSync(tracking, 'not a SQLite database, long enough to have no valid header at all');
    const damaged = run();
    expect(damaged.code).toBe(0);
    expect(JSON.parse(damaged.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain(
      'SOURCE_UNREADABLE',
    );
    expect(await view()).toEqual(archived);
  });
});
