/** `bin/etl`, the command npm links: the CLI under the launcher's runtime settings, as users run it. */
import { spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../helpers/run-cli.js';

const LAUNCHER = resolve('bin/etl');

interface Launched {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The malloc settings and Node options the CLI's process saw, recorded by a preload. */
  seen: { arenaMax?: string; mmapThreshold?: string; execArgv: string[] };
}

function launch(command: string, args: readonly string[], env: Record<string, string> = {}): Launched {
  const dir = tempDir('etl-launcher-');
  const preload = join(dir, 'record-env.cjs');
  const record = join(dir, 'env.json');
  writeFileSync(
    preload,
    `require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify({
      arenaMax: process.env.MALLOC_ARENA_MAX, mmapThreshold: process.env.MALLOC_MMAP_THRESHOLD_,
      execArgv: process.execArgv }));`,
  );
  const base = { ...process.env };
  delete base.MALLOC_ARENA_MAX;
  delete base.MALLOC_MMAP_THRESHOLD_;
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    env: { ...base, NODE_OPTIONS: `--require ${preload}`, ...env },
    timeout: 60_000,
  });
  return {
    code: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    seen: JSON.parse(readFileSync(record, 'utf8')),
  };
}

describe('bin/etl', () => {
  it('runs the built CLI with two malloc arenas and a fixed 256 KiB mmap threshold', () => {
    const run = launch(LAUNCHER, ['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: etl');
    expect(run.seen).toMatchObject({ arenaMax: '2', mmapThreshold: '262144' });
  });

  it('starts Node with the runtime flags V8 reads only at start (the CLI alone does not set them)', () => {
    expect(launch(LAUNCHER, ['--help']).seen.execArgv).toEqual([
      '--single-threaded-gc',
      '--max-semi-space-size=2',
      '--heap-growing-percent=50',
      '--expose-gc',
    ]);
    expect(launch(process.execPath, [CLI, '--help']).seen.execArgv).toEqual([]);
  });

  it('is the command behind both names npm links (etl and cursor-etl), so both run under it', () => {
    const { bin } = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> };
    expect(bin).toEqual({ etl: 'bin/etl', 'cursor-etl': 'bin/etl' });
  });

  it('keeps malloc settings the caller already chose', () => {
    const run = launch(LAUNCHER, ['--help'], { MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(run.seen).toMatchObject({ arenaMax: '4', mmapThreshold: '131072' });
  });

  it('passes arguments, output and the exit category through unchanged (a usage error exits 2)', () => {
    const direct = launch(process.execPath, [CLI, 'bogus', '--json']);
    const launched = launch(LAUNCHER, ['bogus', '--json']);
    expect(direct.code).toBe(2);
    expect(launched.code).toBe(direct.code);
    expect(launched.stdout).toBe(direct.stdout);
    expect(launched.stderr).toBe(direct.stderr);
  });

  it('finds the CLI when invoked through a symlink, as npm link and node_modules/.bin call it', () => {
    const link = join(tempDir('etl-launcher-link-'), 'etl');
    symlinkSync(LAUNCHER, link);
    const run = launch(link, ['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: etl');
    expect(run.seen.arenaMax).toBe('2');
  });
});
