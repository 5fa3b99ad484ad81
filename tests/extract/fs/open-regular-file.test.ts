import { execFileSync } from 'node:child_process';
import { appendFileSync, closeSync, mkdirSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  openRegularFile,
  openRegularFileSync,
  openSizedRegularFileSync,
  readOpenedFileSync,
} from '../../../src/extract/fs/open-regular-file.js';
import { tempDir } from '../../helpers/run-cli.js';

describe('opening a source file never blocks and admits only a regular file', () => {
  const dir = tempDir('etl-open-regular-');
  const file = join(dir, 'source.jsonl');
  writeFileSync(file, 'payload\n');
  const fifo = join(dir, 'swapped.jsonl');
  execFileSync('mkfifo', [fifo]);
  const folder = join(dir, 'folder');
  mkdirSync(folder);

  it('reads a regular file', async () => {
    const fd = openRegularFileSync(file);
    const buffer = Buffer.alloc(7);
    readSync(fd, buffer, 0, 7, 0);
    closeSync(fd);
    expect(buffer.toString()).toBe('payload');
    const handle = await openRegularFile(file);
    expect((await handle.readFile()).toString()).toBe('payload\n');
    await handle.close();
  });

  // A FIFO with no writer would block a plain open forever: the test would time out, not fail.
  for (const [what, path] of [
    ['a FIFO', fifo],
    ['a character device', '/dev/null'],
    ['a directory', folder],
  ] as const) {
    it(`refuses ${what} with the errno-shaped code not-a-regular-file, sync and async`, async () => {
      expect(() => openRegularFileSync(path)).toThrow(
        expect.objectContaining({ code: 'not-a-regular-file' }),
      );
      await expect(openRegularFile(path)).rejects.toMatchObject({
        code: 'not-a-regular-file',
        syscall: 'open',
      });
    });
  }

  it('reads a small file whole from one fstat, past a size that grew, and refuses one past the bound', () => {
    const grown = join(dir, 'grown.json');
    writeFileSync(grown, '{"a":1}');
    const { fd, size } = openSizedRegularFileSync(grown);
    expect(size).toBe(7);
    appendFileSync(grown, 'x'.repeat(20));
    try {
      expect(readOpenedFileSync(fd, size, 100)?.toString()).toBe(`{"a":1}${'x'.repeat(20)}`);
      expect(readOpenedFileSync(fd, size, 26)).toBeNull();
      expect(readOpenedFileSync(fd, 27, 27)?.length).toBe(27);
    } finally {
      closeSync(fd);
    }
  });

  it('keeps the errno of a failed open (a vanished file is ENOENT)', () => {
    expect(() => openRegularFileSync(join(dir, 'gone'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
