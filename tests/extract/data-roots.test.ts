import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DataRootEnvironment, dataRootCandidates } from '../../src/extract/data-roots.js';
import { tempDir } from '../helpers/run-cli.js';

function machine(dirs: readonly string[]): string {
  const fsRoot = tempDir('data-roots-');
  for (const dir of dirs) mkdirSync(join(fsRoot, dir), { recursive: true });
  return fsRoot;
}

/** Each candidate as `kind origin build logical-path found`, the fs root stripped. */
function looked(environment: DataRootEnvironment): string[] {
  return dataRootCandidates(environment).map(
    (c) =>
      `${c.kind} ${c.origin} ${c.build ?? '-'} ${c.path.slice(environment.fsRoot!.length)} ${c.found ? 'found' : 'absent'}`,
  );
}

describe('data root discovery', () => {
  it('looks at both Linux IDE spellings, Insiders, the XDG agent home and the remote server', () => {
    const fsRoot = machine([
      '/home/u/.config/Cursor/User',
      '/home/u/.cursor',
      '/home/u/.cursor-server/data/User',
    ]);
    expect(looked({ platform: 'linux', env: { XDG_CONFIG_HOME: '/xdg' }, home: '/home/u', fsRoot })).toEqual([
      'ide-user xdg-config stable /xdg/Cursor/User absent',
      'ide-user xdg-config insiders /xdg/Cursor - Insiders/User absent',
      'ide-user linux stable /home/u/.config/Cursor/User found',
      'ide-user linux insiders /home/u/.config/Cursor - Insiders/User absent',
      'agent-home xdg-config - /xdg/cursor absent',
      'agent-home linux - /home/u/.cursor found',
      'remote-server remote-server - /home/u/.cursor-server/data/User found',
    ]);
  });

  it('uses the macOS and Windows conventions, and $CURSOR_CONFIG_DIR replaces the agent home', () => {
    const fsRoot = machine(['/Users/u/Library/Application Support/Cursor - Insiders/User']);
    expect(looked({ platform: 'darwin', env: {}, home: '/Users/u', fsRoot }).slice(0, 3)).toEqual([
      'ide-user macos stable /Users/u/Library/Application Support/Cursor/User absent',
      'ide-user macos insiders /Users/u/Library/Application Support/Cursor - Insiders/User found',
      'agent-home macos - /Users/u/.cursor absent',
    ]);
    const win = looked({
      platform: 'win32',
      env: { APPDATA: '/c/Users/u/AppData/Roaming', USERPROFILE: '/c/Users/u', CURSOR_CONFIG_DIR: '/cfg' },
      home: '/c/Users/u',
      fsRoot,
    });
    expect(win.slice(0, 3)).toEqual([
      'ide-user windows stable /c/Users/u/AppData/Roaming/Cursor/User absent',
      'ide-user windows insiders /c/Users/u/AppData/Roaming/Cursor - Insiders/User absent',
      'agent-home cursor-config-dir - /cfg absent',
    ]);
  });

  it('under WSL scans every Windows profile and the distro home, never the system profiles', () => {
    const fsRoot = machine([
      '/mnt/c/Users/Dev/AppData/Roaming/Cursor/User',
      '/mnt/c/Users/Dev/.cursor',
      '/mnt/c/Users/Public',
      '/mnt/c/Users/Default',
      '/home/dev/.cursor',
    ]);
    const found = looked({
      platform: 'linux',
      env: { WSL_DISTRO_NAME: 'Ubuntu' },
      home: '/home/dev',
      fsRoot,
    }).filter((line) => line.endsWith(' found'));
    expect(found).toEqual([
      'agent-home wsl-distro - /home/dev/.cursor found',
      'ide-user wsl-windows stable /mnt/c/Users/Dev/AppData/Roaming/Cursor/User found',
      'agent-home wsl-windows - /mnt/c/Users/Dev/.cursor found',
    ]);
    // Without a WSL marker the Windows side is not a candidate at all.
    expect(looked({ platform: 'linux', env: {}, home: '/home/dev', fsRoot }).join('\n')).not.toContain(
      '/mnt/c',
    );
  });
});
