/**
 * AI code tracking (cursor-formats §4, §9.4) read in process with the sample Composer corpus: facts
 * join by conversationId, a reduced schema is normal, a conversation known only to the tracking DB
 * is no session, and identity v1 is unchanged by the tracking DB.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAiCodeTracking } from '../../../fixtures/code-tracking/ai-code-tracking-db.js';
import { buildSampleCorpus, SAMPLE_COMPOSERS } from '../../../fixtures/sample/sample-corpus.js';
import { CodeTrackingAdapter } from '../../../src/extract/code-tracking/code-tracking-adapter.js';
import { ComposerAdapter } from '../../../src/extract/composer/composer-adapter.js';
import { resolveReadLimits } from '../../../src/extract/limits/read-limits.js';
import { createReadContext } from '../../../src/extract/read-context.js';
import type { SourceAdapter } from '../../../src/extract/source-adapter.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { groupOccurrences } from '../../../src/sync/session-groups.js';
import type { NormalizedSession } from '../../../src/transform/normalized-session.js';
import { decodedContributions } from '../../../src/transform/resolve/resolve-for-load.js';
import { resolveSession } from '../../../src/transform/resolve-session.js';
import { tempDir } from '../../helpers/run-cli.js';

const TRACKED = SAMPLE_COMPOSERS[0]!.id;
const ORPHAN = 'dead0000-0000-4000-8000-00000000dead';

async function load(tracking: 'none' | 'full' | 'reduced'): Promise<Map<string, NormalizedSession>> {
  const { userDir, storeRoot } = buildSampleCorpus(join(tempDir(), 'cursor'));
  if (tracking !== 'none')
    writeAiCodeTracking(storeRoot, {
      reduced: tracking === 'reduced',
      conversationId: TRACKED,
      orphanConversationId: ORPHAN,
    });
  const temp = PrivateTempDir.create();
  const ctx = createReadContext({ limits: resolveReadLimits({}), temp, includeCrossWorkspaceSources: false });
  const adapters: SourceAdapter[] = [new ComposerAdapter(), new CodeTrackingAdapter()];
  try {
    const roots = {
      cursorUserDir: userDir,
      cursorStoreRoot: storeRoot,
      inputs: [],
      backups: [],
      carrier: 'custom' as const,
    };
    const entries = [];
    for (const adapter of adapters)
      for (const source of await adapter.discover(roots, ctx))
        for await (const occurrence of adapter.catalog(source, ctx)) entries.push({ adapter, occurrence });
    const out = new Map<string, NormalizedSession>();
    for (const group of groupOccurrences(entries)) {
      const hydrated = [];
      for (const { adapter, occurrence } of group.members)
        hydrated.push(await adapter.hydrate(occurrence, ctx));
      out.set(
        group.sessionId,
        resolveSession(decodedContributions(hydrated), { preferredSource: 'composer' }),
      );
    }
    expect(ctx.diagnostics!.items).toEqual([]);
    return out;
  } finally {
    for (const adapter of adapters) adapter.close();
    temp.dispose();
  }
}

const ids = (all: Map<string, NormalizedSession>) =>
  [...all.values()].map((s) => [
    s.session.session_id,
    s.messages.map((m) => m.message_id),
    s.toolCalls.map((t) => t.tool_id),
  ]);

describe('AI code tracking enrichment', () => {
  it('joins by conversationId: AI lines per request/file/source/model (no human lines), deleted files, summary', async () => {
    const bare = await load('none');
    const rich = await load('full');
    expect([...rich.keys()].sort()).toEqual([...bare.keys()].sort());
    expect(rich.has(ORPHAN)).toBe(false);
    expect(ids(rich)).toEqual(ids(bare));
    const facts = JSON.parse(rich.get(TRACKED)!.session.extensions!).aiCodeTracking;
    expect(facts).toEqual({
      summary: {
        title: 'Health endpoint work',
        tldr: 'Added /health',
        overview: 'overview text',
        model: 'composer-2.5',
        mode: 'agent',
      },
      aiLines: 5,
      humanLines: 1,
      attribution: [
        { requestId: null, file: '/home/dev/acme-api/src/a.ts', source: 'tab', model: null, lines: 1 },
        {
          requestId: 'req-1',
          file: '/home/dev/acme-api/src/a.ts',
          source: 'composer',
          model: 'composer-2.5',
          lines: 2,
        },
        {
          requestId: 'req-2',
          file: '/home/dev/acme-api/src/b.ts',
          source: 'composer',
          model: 'composer-2.5',
          lines: 1,
        },
        {
          requestId: 'req-3',
          file: '/home/dev/acme-api/src/c.ts',
          source: 'cli',
          model: 'gpt-5.2',
          lines: 1,
        },
      ],
      deletedFiles: [
        { path: 'src/old.ts', model: 'composer-2.5', deletedAt: new Date(1_786_300_100_000).toISOString() },
      ],
    });
    // The Composer title wins; the summary title only fills a gap.
    expect(rich.get(TRACKED)!.session.title).toBe(SAMPLE_COMPOSERS[0]!.name);
    expect(rich.get(TRACKED)!.sourceInstances.map((i) => [i.representation, i.state])).toContainEqual([
      'ai-code-tracking',
      'contributed',
    ]);
    for (const [id, s] of bare)
      if (id !== TRACKED) expect(rich.get(id)!.session.view_digest).toBe(s.session.view_digest);
  });

  it('a reduced schema (no model column, empty summaries) is read without failing', async () => {
    const facts = JSON.parse((await load('reduced')).get(TRACKED)!.session.extensions!).aiCodeTracking;
    expect(facts.summary).toBeNull();
    expect(facts.aiLines).toBe(5);
    expect(facts.attribution.map((a: { model: string | null }) => a.model)).toEqual([null, null, null, null]);
  });
});
