import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRunFlags } from '../../src/cli/run-options.js';
import { defaultOrigin } from '../../src/shared/run-origin.js';
import { tempDir } from '../helpers/run-cli.js';

describe('run options: the origin', () => {
  const roots = { cursorUserDir: '/nonexistent/User', cursorStoreRoot: '/nonexistent/store' };

  it('--origin wins over the config file key, which wins over user@host', async () => {
    const config = join(tempDir(), 'config.json');
    writeFileSync(config, JSON.stringify({ origin: 'from-config' }));
    expect((await resolveRunFlags({ ...roots, config, origin: 'from-flag' })).options.origin).toBe(
      'from-flag',
    );
    expect((await resolveRunFlags({ ...roots, config })).options.origin).toBe('from-config');
    expect((await resolveRunFlags(roots)).options.origin).toBe(defaultOrigin());
  });

  it('a config origin outside the grammar is a usage error', async () => {
    const config = join(tempDir(), 'config.json');
    writeFileSync(config, JSON.stringify({ origin: 'has space' }));
    await expect(resolveRunFlags({ ...roots, config })).rejects.toMatchObject({
      code: 'ORIGIN_INVALID',
      exitCode: 2,
    });
  });
});
