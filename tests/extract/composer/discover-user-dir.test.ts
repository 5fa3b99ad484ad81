import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import { globalDbPath, writeBaselineGlobalDb } from '../../../fixtures/hostile/baseline-corpus.js';
import { discoverUserDir } from '../../../src/extract/composer/discover-user-dir.js';
import { tempDir } from '../../helpers/run-cli.js';

/** The suite runs as root, whom `chmod 000` does not deny: the listing refuses as it would for a user. */
const denied = vi.hoisted(() => ({ dir: '', code: 'EACCES' }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readdirSync = ((path: string, ...rest: unknown[]) => {
    if (path === denied.dir) throw Object.assign(new Error(`${denied.code}: refused`), { code: denied.code });
    return (fs.readdirSync as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readdirSync;
  return { ...fs, readdirSync, default: { ...fs, readdirSync } };
});

function userDirWithWorkspace(): string {
  const userDir = join(tempDir('etl-discover-'), 'User');
  writeBaselineGlobalDb(userDir).close();
  new StateDbBuilder(workspaceDb(userDir)).close();
  return userDir;
}

const workspaceDb = (userDir: string): string => join(userDir, 'workspaceStorage', 'a1b2c3', 'state.vscdb');

describe('discoverUserDir with a workspaceStorage it may not list', () => {
  it('finds the workspace database when the listing is allowed', () => {
    const userDir = userDirWithWorkspace();
    denied.dir = '';
    expect(discoverUserDir(userDir, 'live').map((s) => s.locator)).toEqual([
      globalDbPath(userDir),
      workspaceDb(userDir),
    ]);
  });

  it('still discovers the global database, and no workspace database, when listing is denied', () => {
    const userDir = userDirWithWorkspace();
    denied.dir = join(userDir, 'workspaceStorage');
    denied.code = 'EACCES';
    expect(discoverUserDir(userDir, 'live').map((s) => s.locator)).toEqual([globalDbPath(userDir)]);
  });

  it('lets any other listing failure propagate (it is not a permission fact)', () => {
    const userDir = userDirWithWorkspace();
    denied.dir = join(userDir, 'workspaceStorage');
    denied.code = 'EIO';
    expect(() => discoverUserDir(userDir, 'live')).toThrow('EIO');
  });
});
