import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreAdapter } from '../../../src/extract/store/store-adapter.js';
import { tempDir } from '../../helpers/run-cli.js';

const root = tempDir('etl-store-adapter-');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const rootsAt = (cursorStoreRoot: string) => ({
  cursorUserDir: null,
  cursorStoreRoot,
  inputs: [],
  backups: [],
  carrier: 'custom' as const,
});

describe('Store discovery', () => {
  it('fingerprints a session directory whose only entry cannot be stat-ed by the directory itself', async () => {
    const dir = join(root, 'chats', 'a'.repeat(32), 'sess');
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(dir, 'meta.json'), join(dir, 'meta.json'));
    const adapter = new StoreAdapter();
    const sources = await adapter.discover(rootsAt(root));
    expect(sources.map((s) => s.kind)).toEqual(['store-session-dir']);
    adapter.close();
  });

  it('yields to the event loop while it plans, so work finishing meanwhile (the warehouse opening) goes on', async () => {
    const many = tempDir('etl-store-adapter-many-');
    for (let i = 0; i < 40; i++) {
      const dir = join(many, 'chats', 'b'.repeat(32), `s${i}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'meta.json'), '{}');
    }
    const adapter = new StoreAdapter();
    const order: string[] = [];
    setImmediate(() => order.push('other work'));
    const sources = await adapter.discover(rootsAt(many));
    order.push('discovered');
    expect(sources).toHaveLength(40);
    expect(order).toEqual(['other work', 'discovered']);
    adapter.close();
    rmSync(many, { recursive: true, force: true });
  });
});
