import { describe, expect, it } from 'vitest';
import {
  isWindowsPath,
  normalizeRepositoryUrl,
  normalizeWorkspacePath,
  pathComponents,
} from '../../src/shared/normalize-workspace-path.js';

/** Every spelling Cursor, its CLI, its Store and a Windows/WSL machine write for one folder. */
const SPELLINGS: Record<string, readonly string[]> = {
  'c:/users/dev/app': [
    'file:///c%3A/Users/dev/app',
    'file:///C:/Users/Dev/App',
    'file:///c:/Users/dev/app/',
    'c:\\users\\dev\\app',
    'C:\\Users\\dev\\app\\',
    'C:/Users/dev/./app',
    'C:\\Users\\dev\\tmp\\..\\app',
    'C:\\\\Users\\dev\\\\app',
    '/c:/Users/dev/app',
    '/mnt/c/Users/dev/app',
    '/mnt/C/Users/dev/app/',
    '\\\\?\\C:\\Users\\dev\\app',
    'vscode-remote://wsl%2BUbuntu/mnt/c/Users/dev/app',
  ],
  '/home/dev/trail': [
    '/home/dev/trail',
    '/home/dev/trail/',
    '/home/dev/./trail',
    '/home/dev//trail',
    '/home/dev/x/../trail',
    'file:///home/dev/trail',
    'file://localhost/home/dev/trail/',
    'file:///home/dev/%74rail',
    'vscode-remote://wsl+Ubuntu/home/dev/trail',
    '\\\\wsl$\\Ubuntu\\home\\dev\\trail',
    '\\\\wsl.localhost\\Ubuntu\\home\\dev\\trail\\',
  ],
  '//server/share/proj': ['file://server/share/proj', '\\\\SERVER\\Share\\Proj', '//server/share/proj/'],
  'https://github.com/example/repo': [
    'github.com/example/repo',
    'https://github.com/example/repo',
    'https://GitHub.com/example/repo.git',
    'https://user:token@github.com/example/repo/',
    'git@github.com:example/repo.git',
    'ssh://git@github.com:22/example/repo',
  ],
};

describe('Workspace paths are normalized lexically (one folder, one stored value)', () => {
  for (const [expected, spellings] of Object.entries(SPELLINGS))
    it.each(spellings)(`%j → ${expected}`, (input) => {
      const normalized = expected.startsWith('https://')
        ? normalizeRepositoryUrl(input)
        : normalizeWorkspacePath(input);
      expect(normalized).toBe(expected);
    });

  it('is idempotent: a stored value normalizes to itself, so --workspace can select exactly it', () => {
    for (const expected of Object.keys(SPELLINGS)) expect(normalizeWorkspacePath(expected)).toBe(expected);
    for (const odd of ['/home/dev/app ', '/home/dev/app\n', '/home/Dev', '/tmp/a%2Fb', '/caf\u00e9'])
      expect(normalizeWorkspacePath(normalizeWorkspacePath(odd)!)).toBe(normalizeWorkspacePath(odd));
  });

  it('whitespace that is part of a folder name is kept, never trimmed into the neighbour folder', () => {
    expect(normalizeWorkspacePath('/home/dev/app ')).toBe('/home/dev/app ');
    expect(normalizeWorkspacePath('/home/dev/app\n')).toBe('/home/dev/app\n');
    expect(normalizeWorkspacePath('/home/dev/ app/')).toBe('/home/dev/ app');
    expect(normalizeWorkspacePath('file:///home/dev/app%20')).toBe('/home/dev/app ');
    expect(normalizeWorkspacePath('C:\\Users\\dev\\app ')).toBe('c:/users/dev/app ');
  });

  it('Unicode is stored NFC: the NFD spelling macOS writes joins the NFC one', () => {
    const nfc = '/Users/dev/caf\u00e9';
    expect(normalizeWorkspacePath('/Users/dev/cafe\u0301')).toBe(nfc);
    expect(normalizeWorkspacePath('file:///Users/dev/cafe%CC%81')).toBe(nfc);
    expect(normalizeWorkspacePath('C:\\Caf\u00c9')).toBe('c:/caf\u00e9');
  });

  it('POSIX paths keep their case; Windows paths are stored lower-cased', () => {
    expect(normalizeWorkspacePath('/home/Dev')).toBe('/home/Dev');
    expect(isWindowsPath('c:/users')).toBe(true);
    expect(isWindowsPath('//server/share')).toBe(true);
    expect(isWindowsPath('/home/dev')).toBe(false);
  });

  it('remote authorities and the root stay as written', () => {
    expect(normalizeWorkspacePath('vscode-remote://dev-container%2Babc/workspaces/x/')).toBe(
      'vscode-remote://dev-container+abc/workspaces/x',
    );
    expect(normalizeWorkspacePath('/')).toBe('/');
    expect(normalizeWorkspacePath('/../..')).toBe('/');
    expect(normalizeWorkspacePath('file:///home/dev/%E0%A4%A')).toBe('/home/dev/%E0%A4%A');
  });

  it('relative paths, blank strings and unsupported schemes normalize to null (never guessed)', () => {
    for (const input of ['acme-api', '', '   ', '\n', ' /home/dev', 'ftp://example.com/x', 'https://nohost'])
      expect(normalizeWorkspacePath(input)).toBeNull();
    for (const input of ['', 'repo', 'https://github.com/', 'localhost/x'])
      expect(normalizeRepositoryUrl(input)).toBeNull();
  });

  it('components after the root feed suffix matching', () => {
    expect(pathComponents('https://github.com/example/repo')).toEqual(['example', 'repo']);
    expect(pathComponents('c:/users/app')).toEqual(['users', 'app']);
    expect(pathComponents('//server/share/p')).toEqual(['share', 'p']);
    expect(pathComponents('/')).toEqual([]);
  });
});
