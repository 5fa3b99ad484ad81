import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeBasic } from '../../../fixtures/capture/cli-captures.js';
import { exportChat } from '../../../fixtures/capture/markdown-captures.js';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { CaptureInputNotAFile } from '../../../src/extract/capture/input-not-a-file.js';
import { WALK_MAX_DEPTH, walkInputs } from '../../../src/extract/capture/walk-inputs.js';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { EXIT } from '../../../src/shared/errors.js';
import { tempDir } from '../../helpers/run-cli.js';

/** walkInputs must refuse before opening: a FIFO opened for reading would block this test. */
function thrownBy(inputs: string[]): unknown {
  try {
    walkInputs(inputs);
  } catch (error) {
    return error;
  }
  return null;
}

describe('walkInputs', () => {
  it('walks folders in sorted order, never follows symlinks, and reports missing inputs', () => {
    const root = tempDir();
    const a = writeCapture(root, 'z/a.ndjson', completeBasic());
    const b = writeCapture(root, 'b.md', exportChat());
    symlinkSync(a, join(root, 'link.ndjson'));
    symlinkSync(join(root, 'z'), join(root, 'linkdir'));
    const result = walkInputs([root, join(root, 'missing')]);
    expect(result.files).toEqual([b, a]);
    expect(result.diagnostics.map((d) => d.code).sort()).toEqual([
      'CAPTURE_INPUT_MISSING',
      'CAPTURE_SYMLINK_SKIPPED',
      'CAPTURE_SYMLINK_SKIPPED',
    ]);
    expect(JSON.stringify(result.diagnostics)).not.toContain(root);
  });

  it('reports entries whose names are not UTF-8 as SOURCE_ENCODING_INVALID instead of missing paths', () => {
    const root = tempDir();
    const kept = writeCapture(root, 'ok.ndjson', completeBasic());
    const bad = Buffer.concat([Buffer.from(`${root}/sub`), Buffer.from([0xff])]);
    mkdirSync(bad);
    writeFileSync(Buffer.concat([bad, Buffer.from('/x.ndjson')]), completeBasic());
    const result = walkInputs([root]);
    expect(result.files).toEqual([kept]);
    expect(result.diagnostics.map((d) => [d.code, d.details])).toEqual([
      ['SOURCE_ENCODING_INVALID', { part: 'entry-name', problem: 'invalid-utf8', count: 1 }],
    ]);
    expect(JSON.stringify(result.diagnostics)).not.toContain(root);
  });

  it('stops at the depth bound with a diagnostic', () => {
    const root = tempDir();
    const deep = join(root, ...Array.from({ length: WALK_MAX_DEPTH + 1 }, (_, i) => `d${i}`));
    mkdirSync(deep, { recursive: true });
    writeCapture(deep, 'x.ndjson', completeBasic());
    const result = walkInputs([root]);
    expect(result.files).toEqual([]);
    expect(result.diagnostics[0]?.code).toBe('CAPTURE_WALK_LIMIT');
  });

  // The bound counts capture files only: not the folder walked, not skipped entries.
  it.each([
    ['bound - 1', 9],
    ['bound', 10],
    ['bound + 1', 11],
  ])('a folder of %s capture files admits min(files, bound) of them, in walk order', (_, count) => {
    const bound = 10;
    const root = tempDir();
    mkdirSync(join(root, 'empty'));
    symlinkSync(root, join(root, 'aa-link'));
    const files = Array.from({ length: count }, (_, i) =>
      writeCapture(root, `c${String(i).padStart(2, '0')}.ndjson`, completeBasic()),
    );
    const result = walkInputs([root], bound);
    expect(result.files).toEqual(files.slice(0, bound));
    expect(result.diagnostics.filter((d) => d.code === 'CAPTURE_WALK_LIMIT')).toEqual(
      count > bound ? [expect.objectContaining({ details: { bound: 'files', limit: bound } })] : [],
    );
  });

  it('admits exactly the default bound of 10,000 files from one folder', () => {
    const root = tempDir();
    for (let i = 0; i < DEFAULT_READ_LIMITS.captureInputFiles; i++)
      writeFileSync(join(root, `${String(i).padStart(5, '0')}.ndjson`), '');
    const result = walkInputs([root]);
    expect(result.files.length).toBe(10_000);
    expect(result.diagnostics).toEqual([]);
  });

  it('skips a FIFO met in a folder with a diagnostic, without opening it', () => {
    const root = tempDir();
    const a = writeCapture(root, 'a.ndjson', completeBasic());
    execFileSync('mkfifo', [join(root, 'b.ndjson')]);
    const result = walkInputs([root]);
    expect(result.files).toEqual([a]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        code: 'CAPTURE_NOT_A_FILE',
        severity: 'warning',
        details: { fileType: 'fifo' },
      }),
    ]);
    expect(JSON.stringify(result.diagnostics)).not.toContain(root);
  });

  it('refuses a FIFO or a device named directly as a usage error, without opening it', () => {
    const fifo = join(tempDir(), 'named.ndjson');
    execFileSync('mkfifo', [fifo]);
    for (const [input, fileType] of [
      [fifo, 'fifo'],
      ['/dev/null', 'character-device'],
    ] as const) {
      const error = thrownBy([input]);
      expect(error).toBeInstanceOf(CaptureInputNotAFile);
      const refused = error as CaptureInputNotAFile;
      expect({ code: refused.code, exit: refused.exitCode, fileType: refused.details.fileType }).toEqual({
        code: 'CAPTURE_NOT_A_FILE',
        exit: EXIT.usage,
        fileType,
      });
      expect(JSON.stringify(refused.toJSON())).not.toContain(input);
    }
  });

  it('reports a symlink loop named directly as a skipped symlink, never following it', () => {
    const loop = join(tempDir(), 'loop.ndjson');
    symlinkSync(loop, loop);
    const result = walkInputs([loop]);
    expect(result.files).toEqual([]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['CAPTURE_SYMLINK_SKIPPED']);
  });
});
