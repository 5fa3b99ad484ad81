import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import { GlobalAttribution } from '../../../src/extract/composer/global-attribution.js';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { HydrationBudget } from '../../../src/extract/sqlite/keyset-pager.js';
import { tempDir } from '../../helpers/run-cli.js';

describe('composerData workspace stamps', () => {
  it('each session gets the normalized path of its own stamp, however many sessions share a location', () => {
    const builder = new StateDbBuilder(join(tempDir(), 'state.vscdb'));
    const stamps: Record<string, object> = {
      a: { workspaceIdentifier: { id: 'w1', uri: { fsPath: '/home/dev/one/' } } },
      b: { workspaceIdentifier: { id: 'w1', uri: { fsPath: '/home/dev/one/' } } },
      c: { workspaceIdentifier: { uri: { external: 'file:///C%3A/Work/Two' } } },
      d: { workspaceUri: '/home/dev/one/../three' },
      e: { workspaceIdentifier: { id: 'w9' } },
      f: { workspaceIdentifier: { uri: { fsPath: 'relative/path' } } },
      g: { workspaceIdentifier: { uri: { external: 'file:///C%3A/Work/Two' } } },
    };
    for (const [id, doc] of Object.entries(stamps))
      builder.composerData(id, json({ composerId: id, ...doc }));
    try {
      const attribution = new GlobalAttribution(
        builder.db,
        DEFAULT_READ_LIMITS,
        new HydrationBudget(DEFAULT_READ_LIMITS),
      );
      const paths = Object.keys(stamps).map((id) => attribution.documentStamp(id));
      expect(paths).toEqual([
        { workspaceId: 'w1', path: '/home/dev/one' },
        { workspaceId: 'w1', path: '/home/dev/one' },
        { workspaceId: null, path: 'c:/work/two' },
        { workspaceId: null, path: '/home/dev/three' },
        { workspaceId: 'w9', path: null },
        null,
        { workspaceId: null, path: 'c:/work/two' },
      ]);
      expect(attribution.documentStamp('missing')).toBeNull();
    } finally {
      builder.close();
    }
  });

  it('"A limit failure never silently truncates": a composerData past sqliteValueBytes has no stamp and stops no catalog', () => {
    const builder = new StateDbBuilder(join(tempDir(), 'state.vscdb'));
    const stamp = { workspaceIdentifier: { id: 'w1', uri: { fsPath: '/home/dev/one' } } };
    builder.composerData('small', json({ composerId: 'small', ...stamp }));
    builder.composerData('large', json({ composerId: 'large', ...stamp, name: 'n'.repeat(5_000) }));
    const limits = { ...DEFAULT_READ_LIMITS, sqliteValueBytes: 4096 };
    try {
      const attribution = new GlobalAttribution(builder.db, limits, new HydrationBudget(limits));
      expect(attribution.documentStamp('large')).toBeNull();
      expect(attribution.documentStamp('small')).toEqual({ workspaceId: 'w1', path: '/home/dev/one' });
    } finally {
      builder.close();
    }
  });
});
