import { describe, expect, it } from 'vitest';
import { buildInstallTree } from '../../fixtures/data-roots/install-tree.js';
import { defaultAdditionalRoots, defaultCursorStoreRoot } from '../../src/cli/default-paths.js';
import { tempDir } from '../helpers/run-cli.js';

describe('default data roots', () => {
  it('adds every found root beyond the two primary ones', () => {
    const tree = buildInstallTree(tempDir('default-paths-'));
    const environment = { platform: 'linux' as const, env: tree.env, home: '/home/dev', fsRoot: tree.fsRoot };
    expect(defaultAdditionalRoots([tree.windowsUserDir, tree.distroAgentHome], environment)).toEqual([
      { kind: 'ide-user', path: tree.insidersUserDir },
      { kind: 'agent-home', path: tree.windowsAgentHome },
      { kind: 'remote-server', path: tree.remoteServerUserDir },
    ]);
  });

  it('takes the agent home from $CURSOR_CONFIG_DIR when it is set', () => {
    expect(defaultCursorStoreRoot({ CURSOR_CONFIG_DIR: '/cfg/cursor' })).toBe('/cfg/cursor');
    expect(defaultCursorStoreRoot({ CURSOR_CONFIG_DIR: '' })).toMatch(/\.cursor$/);
  });
});
