import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from './run-cli.js';

let loads = 0;

/** `etl run --json <args>` into a new DuckDB file under `dir`, asserted clean, with a query helper over it. */
export function freshLoad(dir: string, args: readonly string[]) {
  loads += 1;
  const target = `duckdb:${join(dir, `w-${loads}.duckdb`)}`;
  const result = runCli(['run', '--json', ...args, '--target', target]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const rows = (sql: string): Record<string, unknown>[] =>
    JSON.parse(runCli(['query', '--json', '--target', target, sql]).stdout).rows;
  return { output: JSON.parse(result.stdout), rows };
}
