import { describe, expect, it } from 'vitest';
import { comparisonKey, normalizeWorkspacePath } from '../../src/shared/normalize-workspace-path.js';

describe('Workspace paths are normalized lexically', () => {
  it.each([
    ['file:///home/dev/acme-api', '/home/dev/acme-api'],
    ['file:///home/dev/my%20project/', '/home/dev/my project'],
    ['/home/dev/./a/../acme-api//', '/home/dev/acme-api'],
    ['/', '/'],
    ['/../..', '/'],
    ['file:///c%3A/Users/dev/acme', 'c:/Users/dev/acme'],
    ['file:///C:/Users/dev/acme', 'c:/Users/dev/acme'],
    ['C:\\Users\\dev\\acme\\', 'c:/Users/dev/acme'],
    ['/c:/Users/dev/acme', 'c:/Users/dev/acme'],
    ['/mnt/c/Users/dev/acme', 'c:/Users/dev/acme'],
    ['vscode-remote://wsl+Ubuntu/home/dev/acme', '/home/dev/acme'],
    ['vscode-remote://wsl%2BUbuntu/home/dev/acme/', '/home/dev/acme'],
    ['vscode-remote://dev-container%2Babc/workspaces/x/', 'vscode-remote://dev-container+abc/workspaces/x'],
    ['file://server/share/proj', '//server/share/proj'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeWorkspacePath(input)).toBe(expected);
  });

  it('relative paths, empty strings and unsupported schemes normalize to null (never guessed)', () => {
    for (const input of ['acme-api', '', '   ', 'https://example.com/x'])
      expect(normalizeWorkspacePath(input)).toBeNull();
  });

  it('drive paths compare case-insensitively (source-platform case rule); POSIX paths do not', () => {
    expect(comparisonKey(normalizeWorkspacePath('C:\\Users\\Dev\\Acme')!)).toBe(
      comparisonKey(normalizeWorkspacePath('file:///c%3A/users/dev/acme')!),
    );
    expect(comparisonKey('/home/Dev')).not.toBe(comparisonKey('/home/dev'));
  });
});
