/** A Parquet price import killed between its staged file and the rename leaves the old table published. */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { faultAfter, runCli } from '../../helpers/run-cli.js';
import { loadSample, type SampleWarehouse } from '../../helpers/sample-warehouse.js';

const HEADER =
  'model,valid_from,currency,input_per_million,output_per_million,cache_read_per_million,cache_write_per_million';

function models(target: string): unknown[] {
  const run = runCli([
    'query',
    '--json',
    'SELECT model FROM model_prices ORDER BY model',
    '--target',
    target,
  ]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout).rows.map((row: { model: string }) => row.model);
}

function staged(dir: string): string[] {
  const staging = join(dir, 'staging');
  return existsSync(staging) ? readdirSync(staging) : [];
}

describe('etl prices import on a Parquet dataset, killed before its rename', { timeout: 300_000 }, () => {
  let sample: SampleWarehouse;
  let dir: string;
  let file: string;
  beforeAll(() => {
    sample = loadSample('parquet');
    dir = sample.target.slice('parquet:'.length);
    file = join(sample.root, 'prices.csv');
    writeFileSync(file, `${HEADER}\nold-model,2025-01-01,USD,1,1,,\n`);
    expect(runCli(['prices', 'import', file, '--target', sample.target]).code).toBe(0);
  });

  it('keeps the old price table published and its staged temp file unpublished', () => {
    writeFileSync(file, `${HEADER}\nnew-model,2025-01-01,USD,2,2,,\n`);
    const killed = runCli(
      ['prices', 'import', file, '--target', sample.target],
      faultAfter('prices-staged:1'),
    );
    expect(killed.code).not.toBe(0);
    expect(staged(dir)).toEqual([expect.stringMatching(/^model-prices-.*\.parquet$/)]);
    expect(models(sample.target)).toEqual(['old-model']);
    expect(runCli(['verify', '--target', sample.target]).code).toBe(0);
  });

  it('the next import removes the dead temp file and publishes its own table', () => {
    writeFileSync(file, `${HEADER}\nnext-model,2025-01-01,USD,3,3,,\n`);
    const next = runCli(['prices', 'import', file, '--target', sample.target]);
    expect(next.code, next.stderr).toBe(0);
    expect(staged(dir)).toEqual([]);
    expect(models(sample.target)).toEqual(['next-model']);
  });

  it('a killed import followed by a run leaves no staging residue and the old table', () => {
    writeFileSync(file, `${HEADER}\nlost-model,2025-01-01,USD,4,4,,\n`);
    const killed = runCli(
      ['prices', 'import', file, '--target', sample.target],
      faultAfter('prices-staged:1'),
    );
    expect(killed.code).not.toBe(0);
    const run = runCli(['run', '--cursor-user-dir', sample.userDir, '--target', sample.target]);
    expect(run.code, run.stderr).toBe(0);
    expect(staged(dir)).toEqual([]);
    expect(existsSync(join(dir, 'writer.lock'))).toBe(false);
    expect(models(sample.target)).toEqual(['next-model']);
  });
});
