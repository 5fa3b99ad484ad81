import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildSampleCorpus } from '../../fixtures/sample/sample-corpus.js';
import { DEFAULT_READ_LIMITS } from '../../src/extract/limits/read-limits.js';
import { diagnostic } from '../../src/shared/diagnostic.js';
import { beginRun } from '../../src/sync/begin-run.js';
import { discoverSources } from '../../src/sync/catalog-sources.js';
import { finishRun, ledgerFinal } from '../../src/sync/finish-run.js';
import { planRun } from '../../src/sync/plan-run.js';
import { createRunState, type RunStart } from '../../src/sync/run-state.js';
import { SessionBatches } from '../../src/sync/session-batches.js';
import { SessionUnavailable } from '../../src/transform/session-unavailable.js';
import { recordingTarget } from '../helpers/recording-target.js';
import { tempDir } from '../helpers/run-cli.js';

let userDir: string;
const opened: RunStart[] = [];

/** A planned full run over the sample corpus, on a target that records what it is asked. */
async function plannedRun() {
  const start = createRunState({
    roots: { cursorUserDir: userDir, cursorStoreRoot: null, inputs: [], backups: [], carrier: 'live' },
    limits: DEFAULT_READ_LIMITS,
    sinceLast: false,
    preferredSource: 'composer',
    includeCrossWorkspaceSources: false,
  });
  opened.push(start);
  const target = recordingTarget();
  const discovery = discoverSources(start.adapters, start.options.roots, start.ctx);
  const run = await beginRun(start, target);
  const plan = await planRun(run, discovery);
  return { run, plan, target, batches: new SessionBatches(run, plan) };
}

beforeAll(() => {
  userDir = buildSampleCorpus(join(tempDir('etl-finish-'), 'cursor')).userDir;
});

afterEach(() => {
  for (const start of opened.splice(0)) {
    for (const adapter of start.adapters) adapter.close();
    start.temp.dispose();
  }
});

describe('the finish step of a run', () => {
  it('a complete, unscoped run advances every discovered source in the ledger', async () => {
    const { run, plan } = await plannedRun();
    const final = ledgerFinal(run, plan, { kind: 'all' });
    expect(final?.sources.map((s) => s.sourceKey)).toEqual(
      plan.classified.map((c) => c.found.source.sourceKey),
    );
    expect(final?.sources.every((s) => s.changed)).toBe(true);
    expect(final?.fullyRead).toBe(plan.fullyRead);
    expect(final?.concludeVanished).toBe(true);
  });

  it('an interrupted, scoped or partly unreadable run does not advance the ledger', async () => {
    const { run, plan } = await plannedRun();
    expect(ledgerFinal(run, plan, { kind: 'no-match' })).toBeUndefined();
    run.status = 'interrupted';
    expect(ledgerFinal(run, plan, { kind: 'all' })).toBeUndefined();
    run.status = 'committed';
    run.unavailable = SessionUnavailable.of('s-1', []);
    expect(ledgerFinal(run, plan, { kind: 'all' })).toBeUndefined();
  });

  it('an unread source that does not fail the run keeps its row; the sources that were read advance', async () => {
    const { run, plan } = await plannedRun();
    const [unread, ...rest] = plan.classified.map((c) => c.found.source.sourceKey);
    run.ctx.unreadSources?.set(unread!, { failsRun: false });
    const final = ledgerFinal(run, plan, { kind: 'all' });
    expect(final?.sources.map((s) => s.sourceKey)).toEqual(rest);
    expect([...(final?.fullyRead.keys() ?? [])]).not.toContain(unread);
    expect([...(final?.unreadSources ?? [])]).toEqual([unread]);
    run.ctx.unreadSources?.set(rest[0]!, { failsRun: true });
    expect(ledgerFinal(run, plan, { kind: 'all' })).toBeUndefined();
  });

  it('loads the last batch with the ledger conclusions, then records the diagnostics and the run', async () => {
    const { run, plan, target, batches } = await plannedRun();
    run.diagnostics.push(diagnostic('SOURCE_ROOT_MISSING', 'missing', { root: 'cursor-user-dir' }));
    const final = ledgerFinal(run, plan, { kind: 'all' });
    await finishRun(run, batches, final);
    expect(target.recorded.batches.map((b) => b.ledger?.final)).toEqual([final]);
    expect(target.recorded.diagnostics).toEqual(run.diagnostics);
    expect(target.recorded.finished).toEqual({
      status: 'committed',
      counts: expect.objectContaining({ diagnostics: run.diagnostics.length, sessionsMarkedAbsent: 0 }),
    });
  });

  it('a session that could not be read fails the run only after the run is recorded', async () => {
    const { run, batches, target } = await plannedRun();
    run.unavailable = SessionUnavailable.of('s-1', []);
    await expect(finishRun(run, batches, undefined)).rejects.toBe(run.unavailable);
    expect(target.recorded.finished?.status).toBe('committed');
  });
});
