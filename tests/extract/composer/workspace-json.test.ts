import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWorkspaceJson } from '../../../src/extract/composer/workspace-json.js';
import { tempDir } from '../../helpers/run-cli.js';

function workspaceJson(content: string | Buffer): string {
  const path = join(tempDir(), 'workspace.json');
  writeFileSync(path, content);
  return path;
}

describe('workspace.json', () => {
  it('names the folder of a well-formed file', () => {
    expect(readWorkspaceJson(workspaceJson('{"folder":"file:///home/dev/acme-api"}'))).toBe(
      '/home/dev/acme-api',
    );
  });

  it('names no workspace when the text is not UTF-8 or escapes an unpaired surrogate (never a guessed path)', () => {
    const invalid = Buffer.concat([
      Buffer.from('{"folder":"file:///home/dev/a'),
      Buffer.from([0xff, 0x22, 0x7d]),
    ]);
    expect(readWorkspaceJson(workspaceJson(invalid))).toBeNull();
    expect(readWorkspaceJson(workspaceJson('{"folder":"file:///home/dev/a\\ud800"}'))).toBeNull();
  });
});
