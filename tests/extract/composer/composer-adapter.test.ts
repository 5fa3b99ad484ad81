import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildSampleCorpus } from '../../../fixtures/sample/sample-corpus.js';
import { ComposerAdapter } from '../../../src/extract/composer/composer-adapter.js';
import { EarlyContentDigests } from '../../../src/extract/composer/early-content-digests.js';
import { resolveReadLimits } from '../../../src/extract/limits/read-limits.js';
import { createReadContext } from '../../../src/extract/read-context.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import { catalogSources } from '../../../src/sync/catalog-sources.js';
import { tempDir } from '../../helpers/run-cli.js';

let temp: PrivateTempDir;
afterEach(() => temp?.dispose());

/** A composer adapter on the sample corpus, its sources, and a read context on a fresh temp dir. */
async function sampleAdapter() {
  const { userDir } = buildSampleCorpus(join(tempDir(), 'cursor'));
  temp = PrivateTempDir.create();
  const ctx = createReadContext({ limits: resolveReadLimits({}), temp, includeCrossWorkspaceSources: false });
  const adapter = new ComposerAdapter();
  const roots = {
    cursorUserDir: userDir,
    cursorStoreRoot: null,
    inputs: [],
    backups: [],
    carrier: 'custom',
  } as const;
  return { ctx, adapter, sources: await adapter.discover(roots) };
}

describe('ComposerAdapter catalog', () => {
  it('sources cataloged concurrently share one read of the workspace tree: each workspace DB is copied once', async () => {
    const { ctx, adapter, sources } = await sampleAdapter();
    try {
      expect(sources.filter((s) => s.kind === 'composer-workspace-db').length).toBeGreaterThan(1);
      const cataloged = await catalogSources(
        sources.map((source) => ({ adapter, source })),
        ctx,
      );
      expect([...cataloged.values()].flat().length).toBeGreaterThan(0);
      // The sample's DBs are rollback-journal files: each open writes one private copy to the temp dir.
      const copies = readdirSync(temp.path).filter((name) => name.endsWith('snapshot.sqlite'));
      expect(copies).toHaveLength(sources.length);
    } finally {
      adapter.close();
    }
  });

  it.each(['planFinal', 'close'] as const)(
    'stops the content pass it began for the plan on %s, whether or not it was taken',
    async (end) => {
      const { ctx, adapter, sources } = await sampleAdapter();
      const release = vi.spyOn(EarlyContentDigests.prototype, 'release');
      const begin = vi.spyOn(EarlyContentDigests.prototype, 'begin');
      try {
        const global = sources.filter((s) => s.kind === 'composer-global-db');
        expect(global).toHaveLength(1);
        // Read in place, the file is the snapshot: the pass is handed its job, and nobody takes it.
        ctx.readInPlace = new Set([global[0]!.sourceKey]);
        ctx.contentCompared = new Set([global[0]!.sourceKey]);
        await catalogSources([{ adapter, source: global[0]! }], ctx);
        expect(begin).toHaveReturnedWith(true);
        expect(release).not.toHaveBeenCalled();
        adapter[end]();
        expect(release).toHaveBeenCalledTimes(1);
        adapter.planFinal();
        expect(release).toHaveBeenCalledTimes(1);
      } finally {
        release.mockRestore();
        begin.mockRestore();
        adapter.close();
      }
    },
  );
});
