import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWorkspaceJson } from '../../../src/extract/composer/workspace-json.js';
import { tempDir } from '../../helpers/run-cli.js';

function workspaceJson(content: string | Buffer): string {
  const path = join(tempDir(), 'workspace.json');
  writeFileSync(path, content);
  return path;
}

const none = { path: null, problem: null };

describe('workspace.json', () => {
  it('names the folder of a well-formed file', () => {
    expect(readWorkspaceJson(workspaceJson('{"folder":"file:///home/dev/acme-api"}'))).toEqual({
      path: '/home/dev/acme-api',
      problem: null,
    });
  });

  it('reads every folder form of cursor-formats §9.6: file, WSL, SSH remote and a multi-root workspace', () => {
    const read = (value: unknown) => readWorkspaceJson(workspaceJson(JSON.stringify(value))).path;
    expect(read({ folder: 'file:///home/dev/acme-api' })).toBe('/home/dev/acme-api');
    expect(read({ folder: 'vscode-remote://wsl+Ubuntu/home/dev/acme-api' })).toBe('/home/dev/acme-api');
    expect(read({ folder: 'vscode-remote://ssh-remote+build-host/srv/app/' })).toBe(
      'vscode-remote://ssh-remote+build-host/srv/app',
    );
    expect(read({ workspace: 'file:///home/dev/multi.code-workspace' })).toBe(
      '/home/dev/multi.code-workspace',
    );
  });

  it('a missing file or one naming no usable folder is no workspace, not damage', () => {
    expect(readWorkspaceJson(join(tempDir(), 'workspace.json'))).toEqual(none);
    expect(readWorkspaceJson(workspaceJson('{"folder":""}'))).toEqual(none);
    expect(readWorkspaceJson(workspaceJson('{"folder":null,"other":1}'))).toEqual(none);
  });

  it('damage that decodes is unknown, never "no workspace": each shape names its problem', () => {
    const invalid = Buffer.concat([
      Buffer.from('{"folder":"file:///home/dev/a'),
      Buffer.from([0xff, 0x22, 0x7d]),
    ]);
    const cases: [string | Buffer, string][] = [
      [invalid, 'invalid-encoding'],
      ['{"folder":"file:///home/dev/a\\ud800"}', 'invalid-encoding'],
      ['{"folder": ', 'invalid-json'],
      ['', 'invalid-json'],
      ['["file:///home/dev/a"]', 'not-an-object'],
      ['"file:///home/dev/a"', 'not-an-object'],
      ['{}', 'wrong-field-type'],
      ['{"folder":5}', 'wrong-field-type'],
      ['{"folder":{"path":"/home/dev/a"}}', 'wrong-field-type'],
      [
        '{"workspace":["file:///home/dev/a.code-workspace"],"folder":"file:///home/dev/a"}',
        'wrong-field-type',
      ],
    ];
    for (const [content, problem] of cases)
      expect({ content: String(content), read: readWorkspaceJson(workspaceJson(content)) }).toEqual({
        content: String(content),
        read: { path: null, problem },
      });
  });

  it('a directory where the file belongs is damage, read without blocking', () => {
    const path = join(tempDir(), 'workspace.json');
    mkdirSync(path);
    expect(readWorkspaceJson(path)).toEqual({ path: null, problem: 'not-a-regular-file' });
  });
});
