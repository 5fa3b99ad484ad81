import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULTS_END, RESULTS_START, shapeMarkers } from '../../bench/benchmarks-doc.js';
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
      [
        BENCH,
        ...['--sessions', '8', '--messages', '4', '--store-share', '0.5', '--runs', '1'],
        ...['--work', join(work, 'run'), '--doc', doc],
      ],
      { encoding: 'utf8', timeout: 280_000 },
    );
  }, 300_000);

  it('exits 0 and prints a table row for every case 1–12', () => {
    expect(result.stderr).not.toMatch(/failed \(exit/);
    expect(result.status).toBe(0);
    const rowIds = result.stdout
      .split('\n')
      .map((line) => /^\| (\d+) \| /.exec(line)?.[1])
      .filter((id) => id !== undefined);
    expect(rowIds).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);
  });

  it('loads the agentKv-heavy corpus, and its no-op --since-last reads no payload (blobs included)', () => {
    expect(row(9)[2]).toMatch(/^agentKv-heavy full load DuckDB/);
    expect(Number(row(9)[8])).toBeGreaterThan(0);
    expect(Number(row(10)[8])).toBe(0);
    expect(result.stdout).toMatch(
      /agentKv-heavy no-op --since-last reads zero payload bytes \(every run\) \| 0 bytes \(max of 1\) \| met/,
    );
  });

  const row = (id: number): string[] =>
    result.stdout
      .split('\n')
      .find((line) => line.startsWith(`| ${id} |`))!
      .split('|')
      .map((cell) => cell.trim());

  it('runs every case, Parquet and the transcript case included: CPU, peak RSS and payload bytes reported', () => {
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const cells = row(id);
      expect(Number(cells[4]), `case ${id} CPU s`).toBeGreaterThan(0);
      expect(Number(cells[5]), `case ${id} peak RSS`).toBeGreaterThan(0);
      expect(Number.isInteger(Number(cells[8])), `case ${id} payload bytes`).toBe(true);
    }
    expect(readdirSync(join(work, 'run', 'parquet')).length).toBeGreaterThan(0);
  });

  it('reads the whole corpus in the full loads and the floor, and only the grown session in cases 4 and 5', () => {
    const full = Number(row(1)[8]);
    expect(full).toBeGreaterThan(0);
    expect(Number(row(2)[8])).toBe(full);
    expect(Number(row(8)[8])).toBe(full);
    expect(Number(row(7)[8])).toBeGreaterThanOrEqual(full);
    for (const id of [4, 5]) {
      expect(Number(row(id)[8])).toBeGreaterThan(0);
      expect(Number(row(id)[8])).toBeLessThan(full);
    }
  });

  it('writes the table and every target check between the markers of the doc', () => {
    const text = readFileSync(doc, 'utf8');
    const section = text.slice(text.indexOf(RESULTS_START), text.indexOf(RESULTS_END));
    expect(section).toContain('| 7 | raw floor');
    for (const target of [
      '≤ 2× raw floor',
      'zero payload bytes',
      '(one bubble) ≤ 5 % of full load',
      '(transcript grew) ≤ 5 % of full load',
      'peak RSS ≤ 400 MB',
      'within 20 % between 1× and 5×',
      'redacted full load ≤ 1.15× full load',
    ]) {
      const line = section.split('\n').find((l) => l.startsWith('| ') && l.includes(target));
      expect(line, target).toMatch(/ \| (met|\*\*missed\*\*) \|$/);
    }
    for (const stack of ['Composer only', 'Store only', 'both stacks'])
      expect(section).toMatch(new RegExp(`\\| ${stack}: full load ≤ 1.5× raw floor \\| [0-9.]+× wall`));
    expect(section).toContain('| merge (both − Composer − Store + start-up) |');
    for (const sizes of ['Composer:', 'Store DBs:', 'Transcripts:', 'transcript only'])
      expect(section).toContain(sizes);
    expect(section).toMatch(/Node v\d+/);
    expect(section).toMatch(/DuckDB v\d+/);
  });
});

describe('npm run bench -- --shape (smoke, tiny short-sessions corpus in rollback-journal mode)', () => {
  const doc = join(work, 'shapes.md');
  let result: SpawnSyncReturns<string>;
  beforeAll(() => {
    result = spawnSync(
      process.execPath,
      [
        BENCH,
        ...['--shape', 'short', '--sessions', '10', '--journal-mode', 'delete', '--runs', '1'],
        ...['--work', join(work, 'shape-run'), '--doc', doc],
      ],
      { encoding: 'utf8', timeout: 280_000 },
    );
  }, 300_000);

  it('writes the per-stack ratios, the merge row and the change cases into the shape section', () => {
    expect(result.stderr).not.toMatch(/failed \(exit/);
    expect(result.status).toBe(0);
    const [start, end] = shapeMarkers('short');
    const text = readFileSync(doc, 'utf8');
    const section = text.slice(text.indexOf(start), text.indexOf(end));
    expect(section).toContain('"journalMode":"delete"');
    for (const stack of ['start-up (both roots empty)', 'Composer only', 'Store only', 'both stacks'])
      expect(section).toMatch(
        new RegExp(
          `\\| ${stack.replace(/[()]/g, '\\$&')} \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+×`,
        ),
      );
    expect(section).toContain('| merge (both − Composer − Store + start-up) |');
    for (const target of [
      '≤ 1 % of the full load',
      'zero payload bytes',
      '(one bubble) ≤ 5 %',
      'peak RSS ≤ 400 MB',
    ]) {
      const line = section.split('\n').find((l) => l.startsWith('| ') && l.includes(target));
      expect(line, target).toMatch(/ \| (met|\*\*missed\*\*) \|$/);
    }
  });
});
