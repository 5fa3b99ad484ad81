/**
 * Runs the built `etl` as a child with a hard deadline (SIGKILL, so a hang is a failure, never a
 * wait), a private TMPDIR to check for residue, and optional `node --import` preloads.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLI } from '../../helpers/run-cli.js';

export interface EtlResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface EtlRunOptions {
  tmpDir: string;
  env?: Record<string, string>;
  preloads?: readonly string[];
  timeoutMs?: number;
  command?: readonly string[];
}

/** A compiled test helper next to this file, usable with `node --import`. */
export function preloadPath(name: string): string {
  return resolve('dist/tests/reliability/harness', `${name}.js`);
}

export function runEtl(args: readonly string[], options: EtlRunOptions): EtlResult {
  mkdirSync(options.tmpDir, { recursive: true });
  const imports = (options.preloads ?? []).flatMap((p) => ['--import', p]);
  const result = spawnSync(
    options.command?.[0] ?? process.execPath,
    [
      ...(options.command?.slice(1) ?? []),
      ...(options.command ? [process.execPath] : []),
      ...imports,
      CLI,
      ...args,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, CURSOR_ETL_DEBUG: '0', TMPDIR: options.tmpDir, ...options.env },
      timeout: options.timeoutMs ?? 30_000,
      killSignal: 'SIGKILL',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const timedOut = (result.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  return {
    code: result.status,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut,
  };
}

/** Entries the run left in its private TMPDIR (must be none). */
export function tempResidue(tmpDir: string): string[] {
  return readdirSync(tmpDir).map((name) => join(tmpDir, name));
}

/** A V8 stack frame line, which no CLI output may contain. */
export const STACK_TRACE = /^\s+at .+[:(]/m;

/** The contract's exit categories. */
export const EXIT_CATEGORIES: readonly number[] = [0, 1, 2, 3, 4, 5];

/** The fatal error code of a failed `--json` run, or null when stderr is not the JSON error object. */
export function fatalCode(result: EtlResult): string | null {
  try {
    const parsed = JSON.parse(result.stderr) as { error?: { code?: unknown } };
    return typeof parsed.error?.code === 'string' ? parsed.error.code : null;
  } catch {
    return null;
  }
}
