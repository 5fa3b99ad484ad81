import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULTS_END, RESULTS_START } from '../../bench/benchmarks-doc.js';
import { tempDir } from '../helpers/run-cli.js';

const BENCH = resolve('dist/bench/run-bench.js');
const work = tempDir('etl-bench-smoke-');
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm run bench (smoke, tiny corpus)', () => {
  const doc = join(work, 'benchmarks.md');
  let result: SpawnSyncReturns<string>;
  beforeAll(() => {
    result = spawnSync(
      process.execPath,
      [BENCH, '--sessions', '2', '--messages', '4', '--runs', '1', '--work', join(work, 'run'), '--doc', doc],
      { encoding: 'utf8', timeout: 280_000 },
    );
  }, 300_000);

  it('exits 0 and prints a table row for every case 1–7', () => {
    expect(result.stderr).not.toMatch(/failed \(exit/);
    expect(result.status).toBe(0);
    const rowIds = result.stdout
      .split('\n')
      .map((line) => /^\| (\d) \| /.exec(line)?.[1])
      .filter((id) => id !== undefined);
    expect(rowIds).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  });

  it('measures the full loads: whole corpus payload read, CPU and peak RSS reported', () => {
    const full = result.stdout.split('\n').find((line) => line.startsWith('| 1 |'))!;
    const cells = full.split('|').map((cell) => cell.trim());
    expect(Number(cells[4])).toBeGreaterThan(0);
    expect(Number(cells[5])).toBeGreaterThan(0);
    expect(Number(cells[8])).toBeGreaterThan(0);
  });

  it('writes the table and every target check between the markers of the doc', () => {
    const text = readFileSync(doc, 'utf8');
    const section = text.slice(text.indexOf(RESULTS_START), text.indexOf(RESULTS_END));
    expect(section).toContain('| 7 | raw floor');
    for (const target of ['≤ 2× raw floor', 'zero payload bytes', '≤ 5 % of full load', 'peak RSS ≤ 400 MB'])
      expect(section).toContain(target);
    expect(section).toMatch(/Node v\d+/);
    expect(section).toMatch(/DuckDB v\d+/);
  });
});
