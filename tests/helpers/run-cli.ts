/** Runs the built `etl` binary as a whole process, as users and cron do. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CLI = resolve('dist/src/cli/main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], env: Record<string, string> = {}): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** The environment that kills a CLI child at `<point>:<n>` (the preload `fault-after.ts`, built). */
/** `etl run --json` over a Cursor user dir and Store root into a DuckDB warehouse. */
export function runRoots(
  userDir: string,
  storeRoot: string,
  warehouse: string,
  ...extra: string[]
): CliResult {
  return runCli([
    'run',
    '--json',
    '--cursor-user-dir',
    userDir,
    '--cursor-store-root',
    storeRoot,
    '--target',
    `duckdb:${warehouse}`,
    ...extra,
  ]);
}

export function faultAfter(point: string): Record<string, string> {
  const preload = pathToFileURL(resolve('dist/tests/helpers/fault-after.js')).href;
  return { CURSOR_ETL_FAULT_AFTER: point, NODE_OPTIONS: `--import ${preload}` };
}

/** The environment that sends SIGINT to a CLI child at `<point>:<n>`, as a Ctrl-C there would. */
export function interruptAfter(point: string): Record<string, string> {
  return { ...faultAfter(point), CURSOR_ETL_FAULT_SIGNAL: 'SIGINT' };
}

export function tempDir(prefix = 'etl-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
