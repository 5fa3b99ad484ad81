import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userDirUnder, writeBaselineGlobalDb } from '../../fixtures/hostile/baseline-corpus.js';
import { DuckDbTarget } from '../../src/load/duckdb/duckdb-target.js';
import { withOutputPermissions } from '../../src/shared/output-permissions.js';
import { tempDir } from '../helpers/run-cli.js';
import { runEtlInProcess } from './harness/etl-in-process.js';

/** Every entry under `root` (itself included) with its permission bits. */
function modesUnder(root: string): { path: string; dir: boolean; mode: number }[] {
  const stat = statSync(root);
  const here = { path: root, dir: stat.isDirectory(), mode: stat.mode & 0o777 };
  if (!here.dir) return [here];
  return [here, ...readdirSync(root).flatMap((name) => modesUnder(join(root, name)))];
}

const EXPECTED = {
  private: { file: 0o600, dir: 0o700 },
  shared: { file: 0o640, dir: 0o750 },
} as const;

/** Parquet staging is a private work area in either mode (it holds unpublished rows). */
const ALWAYS_PRIVATE = /(^|\/)staging$/;

describe('files the project creates are owner-only by default; --shared-permissions makes them group-readable', () => {
  let root: string;
  let userDir: string;
  let umask: number;
  beforeAll(() => {
    root = tempDir('etl-permissions-');
    userDir = userDirUnder(join(root, 'cursor'));
    writeBaselineGlobalDb(userDir).close();
    // The most permissive umask: the modes must come from the product, not from the environment.
    umask = process.umask(0o000);
  });
  afterAll(() => {
    process.umask(umask);
  });

  for (const permissions of ['private', 'shared'] as const) {
    for (const kind of ['duckdb', 'parquet'] as const) {
      it(`${permissions}: a ${kind} warehouse (with its new directories), the ledger in it and its exports`, async () => {
        const out = join(root, `${permissions}-${kind}`);
        const target = `${kind}:${join(out, 'archive', kind === 'duckdb' ? 'history.duckdb' : 'dataset')}`;
        const flag = permissions === 'shared' ? ['--shared-permissions'] : [];
        const tmp = join(root, 'tmp');
        const run = await runEtlInProcess(
          ['run', '--json', '--cursor-user-dir', userDir, '--target', target, ...flag],
          tmp,
        );
        expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
        for (const format of ['parquet', 'jsonl', 'archive-jsonl']) {
          const file = join(out, 'exports', format === 'archive-jsonl' ? 'sessions.jsonl' : format);
          const exported = await runEtlInProcess(
            ['export', '--json', '--target', target, '--format', format, '--out', file, ...flag],
            tmp,
          );
          expect({ format, code: exported.code, stderr: exported.stderr }).toEqual({
            format,
            code: 0,
            stderr: '',
          });
        }
        const entries = modesUnder(out);
        expect(entries.filter((e) => !e.dir).length).toBeGreaterThanOrEqual(kind === 'duckdb' ? 4 : 20);
        const want = EXPECTED[permissions];
        for (const entry of entries) {
          const name = relative(root, entry.path);
          const expected = entry.dir ? (ALWAYS_PRIVATE.test(entry.path) ? 0o700 : want.dir) : want.file;
          expect({ name, mode: entry.mode.toString(8) }).toEqual({ name, mode: expected.toString(8) });
        }
      }, 300_000);
    }
  }

  it('the DuckDB WAL a run writes (it holds message content) has the output permissions, whatever the umask', async () => {
    for (const permissions of ['private', 'shared'] as const) {
      const path = join(root, `wal-${permissions}`, 'w.duckdb');
      await withOutputPermissions(permissions, async () => {
        const target = await DuckDbTarget.open(path);
        try {
          await target.beginRun({ runId: 'r1', startedAtMs: 0, mode: 'full', optionsDigest: 'd' });
          expect({ permissions, wal: (statSync(`${path}.wal`).mode & 0o777).toString(8) }).toEqual({
            permissions,
            wal: EXPECTED[permissions].file.toString(8),
          });
        } finally {
          await target.close();
        }
      });
    }
  });
});
