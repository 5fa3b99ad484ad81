/**
 * Permission refusals on what a run writes are typed: exit 4, PERMISSION_DENIED, the kind of path
 * and a remedy, never INTERNAL_ERROR and never a path. The suite runs as root, whom modes do not
 * deny, so the CLI runs here as `nobody` over directories it may not write.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSampleCorpus } from '../../fixtures/sample/sample-corpus.js';
import { CLI, tempDir } from '../helpers/run-cli.js';

const NOBODY = 65534;

function runAsNobody(
  args: readonly string[],
  home: string,
): { code: number; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    uid: NOBODY,
    gid: NOBODY,
    env: { ...process.env, HOME: home, TMPDIR: home, XDG_CONFIG_HOME: home },
    timeout: 120_000,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Every case: where the target sits, and which kind of path the refusal must name. */
const CASES = [
  { kind: 'duckdb', layout: 'read-only parent', pathKind: 'lock' },
  { kind: 'parquet', layout: 'read-only parent', pathKind: 'dataset' },
  { kind: 'parquet', layout: 'read-only dataset', pathKind: 'dataset' },
  { kind: 'parquet', layout: 'read-only dataset with states', pathKind: 'lock' },
] as const;

describe('permission errors say so (exit 4, PERMISSION_DENIED, the kind of path, a remedy)', () => {
  let root: string;
  let userDir: string;
  let home: string;
  beforeAll(() => {
    root = tempDir();
    chmodSync(root, 0o755);
    ({ userDir } = buildSampleCorpus(join(root, 'cursor')));
    spawnSync('chmod', ['-R', 'a+rX', join(root, 'cursor')]);
    home = join(root, 'home');
    mkdirSync(home, { mode: 0o777 });
    chmodSync(home, 0o777);
  });

  for (const [index, c] of CASES.entries()) {
    it(`${c.kind} target, ${c.layout}: refused as ${c.pathKind}`, () => {
      const parent = join(root, `case-${index}`);
      mkdirSync(parent, { mode: 0o755 });
      const path = join(parent, c.kind === 'duckdb' ? 'w.duckdb' : 'dataset');
      if (c.layout !== 'read-only parent') {
        mkdirSync(path, { mode: 0o555 });
        if (c.layout === 'read-only dataset with states') mkdirSync(join(path, 'states'));
        chmodSync(path, 0o555);
      } else chmodSync(parent, 0o555);
      const result = runAsNobody(
        ['run', '--json', '--cursor-user-dir', userDir, '--target', `${c.kind}:${path}`],
        home,
      );
      expect(result.code).toBe(4);
      const error = JSON.parse(result.stderr).error;
      expect(error.code).toBe('PERMISSION_DENIED');
      expect(error.message).toMatch(/permission denied/i);
      expect(error.details).toMatchObject({ pathKind: c.pathKind, reason: 'EACCES' });
      expect(error.details.remedy).toMatch(/write access/);
      expect(result.stderr).not.toContain(parent);
    });
  }

  it('an export whose --out may not be written is PERMISSION_DENIED (export-out), nothing left behind', () => {
    const parent = join(root, 'export-denied');
    const warehouse = join(parent, 'w.duckdb');
    mkdirSync(parent, { mode: 0o755 });
    spawnSync(process.execPath, [
      CLI,
      'run',
      '--cursor-user-dir',
      userDir,
      '--target',
      `duckdb:${warehouse}`,
    ]);
    spawnSync('chmod', ['-R', 'a+rX', parent]);
    const out = join(parent, 'out');
    mkdirSync(out, { mode: 0o555 });
    chmodSync(out, 0o555);
    for (const [format, path] of [
      ['jsonl', join(out, 'tables')],
      ['archive-jsonl', join(out, 'sessions.jsonl')],
    ] as const) {
      const result = runAsNobody(
        ['export', '--json', '--format', format, '--out', path, '--target', `duckdb:${warehouse}`],
        home,
      );
      expect(result.code).toBe(4);
      expect(JSON.parse(result.stderr).error).toMatchObject({
        code: 'PERMISSION_DENIED',
        details: { pathKind: 'export-out', reason: 'EACCES' },
      });
      expect(result.stderr).not.toContain(parent);
    }
    expect(readdirSync(out)).toEqual([]);
  });

  it('the Parquet run lock lives inside the dataset: a run succeeds under a parent it may not write', () => {
    const parent = join(root, 'lock-inside');
    const path = join(parent, 'dataset');
    mkdirSync(path, { recursive: true });
    spawnSync('chown', [`${NOBODY}:${NOBODY}`, path]);
    chmodSync(parent, 0o555);
    const result = runAsNobody(
      ['run', '--json', '--cursor-user-dir', userDir, '--target', `parquet:${path}`],
      home,
    );
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(readdirSync(parent)).toEqual(['dataset']);
    expect(existsSync(join(path, 'writer.lock'))).toBe(false);
  });
});
