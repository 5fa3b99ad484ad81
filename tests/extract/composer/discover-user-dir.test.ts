import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import { globalDbPath, writeBaselineGlobalDb } from '../../../fixtures/hostile/baseline-corpus.js';
import { discoverUserDir } from '../../../src/extract/composer/discover-user-dir.js';
import { DiagnosticSink } from '../../../src/shared/diagnostic.js';
import { denied } from '../../helpers/denied-fs.js';
import { tempDir } from '../../helpers/run-cli.js';

vi.mock('node:fs', async (original) =>
  (await import('../../helpers/denied-fs.js')).deniedFs(await original()),
);

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
    denied.clear();
    expect(discoverUserDir(userDir, 'live').map((s) => s.locator)).toEqual([
      globalDbPath(userDir),
      workspaceDb(userDir),
    ]);
  });

  it('still discovers the global database, and no workspace database, when listing is denied', () => {
    const userDir = userDirWithWorkspace();
    denied.set(join(userDir, 'workspaceStorage'), 'EACCES');
    expect(discoverUserDir(userDir, 'live').map((s) => s.locator)).toEqual([globalDbPath(userDir)]);
  });

  it('lets any other listing failure propagate (it is not a permission fact)', () => {
    const userDir = userDirWithWorkspace();
    denied.set(join(userDir, 'workspaceStorage'), 'EIO');
    expect(() => discoverUserDir(userDir, 'live')).toThrow('EIO');
  });
});

describe('discoverUserDir with a workspace directory whose name is not UTF-8', () => {
  it('leaves its database out and reports SOURCE_ENCODING_INVALID instead of guessing the name', () => {
    const userDir = userDirWithWorkspace();
    denied.clear();
    const bad = Buffer.concat([Buffer.from(`${join(userDir, 'workspaceStorage')}/d4`), Buffer.from([0xff])]);
    mkdirSync(bad);
    copyFileSync(workspaceDb(userDir), Buffer.concat([bad, Buffer.from('/state.vscdb')]));
    const sink = new DiagnosticSink();
    expect(discoverUserDir(userDir, 'live', undefined, sink).map((s) => s.locator)).toEqual([
      globalDbPath(userDir),
      workspaceDb(userDir),
    ]);
    expect(sink.items.map((d) => [d.code, d.details])).toEqual([
      [
        'SOURCE_ENCODING_INVALID',
        { sourceKind: 'composer', part: 'entry-name', problem: 'invalid-utf8', count: 1 },
      ],
    ]);
    expect(JSON.stringify(sink.items)).not.toContain(userDir);
  });
});
