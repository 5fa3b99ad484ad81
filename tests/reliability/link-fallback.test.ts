/**
 * Storage without hard links: when link() is refused (EXDEV across mounts, EPERM/ENOTSUP on SMB,
 * FAT or bucket mounts, EMLINK at the link limit), unchanged files are copied and flushed, the run
 * says so once, and every later run publishes a state that verifies. node:fs injects the refusal.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { currentState } from '../helpers/dataset-files.js';
import { editBubbleText } from '../helpers/sample-edits.js';
import { loadSample } from '../helpers/sample-warehouse.js';
import { runEtlInProcess } from './harness/etl-in-process.js';

const refusal = vi.hoisted(() => ({ code: null as string | null }));

vi.mock('node:fs', async (original) => {
  const fs = (await original()) as typeof import('node:fs');
  const linkSync = (...args: Parameters<typeof fs.linkSync>): void => {
    if (refusal.code !== null)
      throw Object.assign(new Error(`${refusal.code}: link refused`), { code: refusal.code });
    fs.linkSync(...args);
  };
  return { ...fs, linkSync, default: { ...fs, linkSync } };
});

const A001 = '3f2a9c1e-0000-4000-8000-00000000a001';

describe('a dataset on storage that refuses hard links', () => {
  for (const code of ['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK']) {
    it(`link() failing with ${code}: runs copy the unchanged files, say so once, and every state verifies`, async () => {
      const sample = loadSample('parquet');
      const dir = sample.target.slice('parquet:'.length);
      const tmp = join(sample.root, 'tmp');
      refusal.code = code;
      try {
        for (const text of ['First edit.', 'Second edit.']) {
          editBubbleText(sample.userDir, A001, 'b-a001-06', text);
          const run = await runEtlInProcess(
            ['run', '--json', '--cursor-user-dir', sample.userDir, '--target', sample.target],
            tmp,
          );
          expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
          const output = JSON.parse(run.stdout);
          expect(output.run.counts).toMatchObject({ sessionsReplaced: 1 });
          // Said once per run, however many files were copied.
          expect(
            (output.diagnostics as { code: string; details: unknown }[]).filter(
              (d) => d.code === 'DATASET_LINKS_UNAVAILABLE',
            ),
          ).toEqual([expect.objectContaining({ severity: 'info', details: { errorCode: code } })]);
          const verify = await runEtlInProcess(['verify', '--json', '--target', sample.target], tmp);
          expect(verify.code).toBe(0);
        }
      } finally {
        refusal.code = null;
      }
      // Nothing in the published state is shared by link: every file was written or copied.
      const manifest = JSON.parse(
        (await import('node:fs')).readFileSync(
          join(dir, 'states', currentState(dir), 'manifest.json'),
          'utf8',
        ),
      );
      const files = Object.values(manifest.tables as Record<string, { files: { path: string }[] }>).flatMap(
        (t) => t.files,
      );
      expect(files.length).toBeGreaterThan(10);
      for (const file of files)
        expect(statSync(join(dir, 'states', currentState(dir), file.path)).nlink).toBe(1);
    }, 300_000);
  }
});
