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

/** `code` refuses every link() from the one after the first `granted` calls on (the open's probe is the first). */
const refusal = vi.hoisted(() => ({ code: null as string | null, granted: 0, calls: 0 }));

vi.mock('node:fs', async (original) => {
  const fs = (await original()) as typeof import('node:fs');
  const linkSync = (...args: Parameters<typeof fs.linkSync>): void => {
    if (refusal.code !== null && ++refusal.calls > refusal.granted)
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
      refusal.granted = 0;
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

  // The open's probe links, then the storage starts refusing while the state is built (a file at
  // its link limit, a file another user owns): said once, stored once and counted in etl_runs.
  for (const code of ['EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK']) {
    it(`link() failing with ${code} mid-run is said once, stored once and counted`, async () => {
      const sample = loadSample('parquet');
      const tmp = join(sample.root, 'tmp');
      editBubbleText(sample.userDir, A001, 'b-a001-06', 'An edit.');
      Object.assign(refusal, { code, granted: 3, calls: 0 });
      let run: Awaited<ReturnType<typeof runEtlInProcess>>;
      try {
        run = await runEtlInProcess(
          ['run', '--json', '--cursor-user-dir', sample.userDir, '--target', sample.target],
          tmp,
        );
      } finally {
        refusal.code = null;
      }
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(refusal.calls).toBeGreaterThan(4);
      const output = JSON.parse(run.stdout);
      const said = (output.diagnostics as { code: string }[]).filter(
        (d) => d.code === 'DATASET_LINKS_UNAVAILABLE',
      );
      expect(said).toEqual([expect.objectContaining({ severity: 'info', details: { errorCode: code } })]);
      expect(output.run.counts.diagnostics).toBe(output.diagnostics.length);
      const query = async (sql: string) => {
        const result = await runEtlInProcess(['query', '--json', '--target', sample.target, sql], tmp);
        expect(result.code).toBe(0);
        return JSON.parse(result.stdout).rows as Record<string, unknown>[];
      };
      const runId = output.run.runId as string;
      expect(
        await query(
          `select code, details from diagnostics where run_id = '${runId}' and code = 'DATASET_LINKS_UNAVAILABLE'`,
        ),
      ).toHaveLength(1);
      const [stored] = await query(
        `select diagnostics::INTEGER as counted, (select count(*)::INTEGER from diagnostics d where d.run_id = r.run_id) as rows from etl_runs r where run_id = '${runId}'`,
      );
      expect(stored).toEqual({ counted: output.diagnostics.length, rows: output.diagnostics.length });
      expect((await runEtlInProcess(['verify', '--json', '--target', sample.target], tmp)).code).toBe(0);
    }, 300_000);
  }
});
