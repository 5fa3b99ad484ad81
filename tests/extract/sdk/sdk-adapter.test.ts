/**
 * The SDK store adapter under Source Read Limits v1: catalog pages read metadata only, one-row
 * pages still read every run and event, a crossed value bound fails the agent (never the run), and
 * an index.db without the SDK tables is unreadable, reported and left unread.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSdkIndexDb } from '../../../fixtures/sdk/sdk-index-db.js';
import { SDK_AGENTS, writeSdkStoreCorpus } from '../../../fixtures/sdk/sdk-store-corpus.js';
import { resolveReadLimits } from '../../../src/extract/limits/read-limits.js';
import { createReadContext } from '../../../src/extract/read-context.js';
import { SdkStoreAdapter } from '../../../src/extract/sdk/sdk-adapter.js';
import type { SdkAgentContribution } from '../../../src/extract/sdk/sdk-contribution.js';
import type { ReadContext, SessionOccurrence } from '../../../src/extract/source-adapter.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { tempDir } from '../../helpers/run-cli.js';

async function read(
  storeRoot: string,
  overrides: Record<string, number>,
  hydrate: boolean,
): Promise<{ occurrences: SessionOccurrence[]; contributions: SdkAgentContribution[]; ctx: ReadContext }> {
  const temp = PrivateTempDir.create();
  const ctx = createReadContext({
    limits: resolveReadLimits(overrides),
    temp,
    includeCrossWorkspaceSources: false,
  });
  const adapter = new SdkStoreAdapter();
  const occurrences: SessionOccurrence[] = [];
  const contributions: SdkAgentContribution[] = [];
  try {
    const roots = {
      cursorUserDir: null,
      cursorStoreRoot: storeRoot,
      inputs: [],
      backups: [],
      carrier: 'custom' as const,
    };
    for (const source of await adapter.discover(roots, ctx))
      for await (const occurrence of adapter.catalog(source, ctx)) {
        occurrences.push(occurrence);
        if (hydrate) contributions.push((await adapter.hydrate(occurrence, ctx)) as SdkAgentContribution);
      }
    return { occurrences, contributions, ctx };
  } finally {
    adapter.close();
    temp.dispose();
  }
}

describe('SDK store adapter', () => {
  it('catalogs one occurrence per agent from metadata alone (no payload read), with its workspace', async () => {
    const { storeRoot } = writeSdkStoreCorpus(tempDir());
    const { occurrences, ctx } = await read(storeRoot, {}, false);
    expect(occurrences.map((o) => [o.sessionId, o.representation, o.workspacePath]).sort()).toEqual(
      [
        [SDK_AGENTS.withTranscript, 'sdk-agent-store', '/home/u/app'],
        [SDK_AGENTS.sdkOnly, 'sdk-agent-store', '/home/u/other'],
        [SDK_AGENTS.hostile, 'sdk-agent-store', '/home/u/app'],
      ].sort(),
    );
    expect(ctx.counters.payloadReads).toBe(0);
    expect(ctx.counters.metadataRows).toBe(3);
    // The per-agent store.db beside the first index has no documented schema: counted, never a source.
    const unread = ctx.diagnostics?.items.filter((d) => d.code === 'SDK_AGENT_STORES_UNREAD') ?? [];
    expect(unread.map((d) => [d.severity, d.details])).toEqual([['info', { count: 1 }]]);
  });

  it('one-row pages read every run and event; both runs schemas are read by their columns', async () => {
    const { storeRoot } = writeSdkStoreCorpus(tempDir());
    const paged = await read(storeRoot, { sqlitePageRows: 1 }, true);
    const full = await read(storeRoot, {}, true);
    const shape = (cs: SdkAgentContribution[]) =>
      cs
        .map((c) => [
          c.occurrence.sessionId,
          c.data.runColumns,
          c.data.runs.map((r) => [r.cells.run_id, r.events.length]),
        ])
        .sort();
    expect(shape(paged.contributions)).toEqual(shape(full.contributions));
    const agent = (cs: SdkAgentContribution[], id: string) => cs.find((c) => c.occurrence.sessionId === id)!;
    expect(agent(full.contributions, SDK_AGENTS.withTranscript).data.runColumns).toEqual([
      'request_id',
      'usage_json',
    ]);
    expect(agent(full.contributions, SDK_AGENTS.sdkOnly).data.runColumns).toEqual([]);
    expect(
      agent(full.contributions, SDK_AGENTS.withTranscript).data.runs.map((r) => r.events.length),
    ).toEqual([5, 4]);
    expect(full.ctx.counters.payloadReads).toBeGreaterThan(0);
  });

  it('a payload over sqliteValueBytes fails that agent with SOURCE_LIMIT_EXCEEDED; the others are read', async () => {
    const { storeRoot } = writeSdkStoreCorpus(tempDir());
    const { contributions } = await read(storeRoot, { sqliteValueBytes: 200, sqlitePageBytes: 200 }, true);
    const byId = new Map(contributions.map((c) => [c.occurrence.sessionId, c]));
    const failed = byId.get(SDK_AGENTS.withTranscript)!;
    expect(failed.data.status).toBe('failed');
    expect(failed.diagnostics.map((d) => [d.code, d.details.bound])).toEqual([
      ['SOURCE_LIMIT_EXCEEDED', 'sqliteValueBytes'],
    ]);
    expect(byId.get(SDK_AGENTS.hostile)!.data.status).toBe('read');
  });

  it('an index.db without the SDK tables, or not SQLite, is SOURCE_UNREADABLE and recorded as unread', async () => {
    const root = tempDir();
    const wrong = join(root, 'projects', 'p', 'sdk-agent-store', 'h1', 'index.db');
    writeSdkIndexDb(wrong, { withUsage: true, agents: [], runs: [], events: [] });
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(wrong);
    db.exec('DROP TABLE run_events');
    db.close();
    const garbage = join(root, 'projects', 'p', 'sdk-agent-store', 'h2', 'index.db');
    writeSdkIndexDb(garbage, { withUsage: true, agents: [], runs: [], events: [] });
    writeFileSync(garbage, 'not a database at all, just text');
    const { occurrences, ctx } = await read(root, {}, false);
    expect(occurrences).toEqual([]);
    const reasons = ctx.diagnostics!.items.map((d) => [d.code, d.details.reason]);
    expect(reasons).toContainEqual(['SOURCE_UNREADABLE', 'no-run-events-table']);
    expect(reasons).toHaveLength(2);
    expect(ctx.unreadSources!.size).toBe(2);
  });

  it('an agent row whose agent_id is not text is skipped and counted, never guessed', async () => {
    const root = tempDir();
    const agent = (id: string | Buffer) => ({
      agent_id: id,
      workspace_ref: '/w',
      status: 'IDLE',
      created_at: '2026-07-01T10:00:00Z',
      updated_at: '2026-07-01T10:00:00Z',
    });
    writeSdkIndexDb(join(root, 'projects', 'p', 'sdk-agent-store', 'h', 'index.db'), {
      withUsage: true,
      agents: [agent(Buffer.from('agent-blob')), agent('agent-text')],
      runs: [],
      events: [],
    });
    const { occurrences, ctx } = await read(root, {}, false);
    expect(occurrences.map((o) => o.sessionId)).toEqual(['agent-text']);
    expect(ctx.diagnostics!.items.map((d) => [d.code, d.details])).toEqual([
      ['SDK_FIELD_INVALID', { table: 'agents', field: 'agent_id', reason: 'wrong-type', count: 1 }],
    ]);
  });
});
