import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreAdapter } from '../../../src/extract/store/store-adapter.js';
import { tempDir } from '../../helpers/run-cli.js';

const root = tempDir('etl-store-adapter-');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('Store discovery', () => {
  it('fingerprints a session directory whose only entry cannot be stat-ed by the directory itself', async () => {
    const dir = join(root, 'chats', 'a'.repeat(32), 'sess');
    mkdirSync(dir, { recursive: true });
    symlinkSync(join(dir, 'meta.json'), join(dir, 'meta.json'));
    const adapter = new StoreAdapter();
    const sources = await adapter.discover({
      cursorUserDir: null,
      cursorStoreRoot: root,
      inputs: [],
      backups: [],
      carrier: 'custom',
    });
    expect(sources.map((s) => s.kind)).toEqual(['store-session-dir']);
    adapter.close();
  });
});
