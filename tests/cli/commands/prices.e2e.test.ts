/** `etl prices import/show` on both targets: whole-table replace, views priced, refusals typed. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { loadSample, type SampleWarehouse } from '../../helpers/sample-warehouse.js';

const HEADER =
  'model,valid_from,currency,input_per_million,output_per_million,cache_read_per_million,cache_write_per_million';

function query(target: string, sql: string): Record<string, unknown>[] {
  const run = runCli(['query', '--json', sql, '--target', target]);
  if (run.code !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout).rows;
}

describe.each(['duckdb', 'parquet'] as const)('etl prices on %s', { timeout: 300_000 }, (kind) => {
  let sample: SampleWarehouse;
  let file: string;
  beforeAll(() => {
    sample = loadSample(kind);
    file = join(sample.root, 'prices.csv');
  });

  it('without a price table, cost is NULL and show says none is imported', () => {
    expect(query(sample.target, 'SELECT count(*) AS n, count(cost) AS priced FROM v_usage_cost')).toEqual([
      { n: 2, priced: 0 },
    ]);
    const show = runCli(['prices', 'show', '--target', sample.target]);
    expect([show.code, show.stdout]).toEqual([0, expect.stringContaining('no price table imported')]);
  });

  it('import prices usage by the price valid at its time; a second import replaces the whole table', () => {
    // The two sample rows are at 09:30:41 and 09:31:35 on 2025-10-14 (UTC).
    writeFileSync(
      file,
      `${HEADER}\nclaude-4-sonnet,2025-01-01,USD,3,15,,\nclaude-4-sonnet,2025-10-14T09:31:00Z,USD,2,10,,\n`,
    );
    const imported = runCli(['prices', 'import', '--json', file, '--target', sample.target]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ prices: { rows: 2, models: 1 } });
    expect(query(sample.target, 'SELECT cost FROM v_usage_cost ORDER BY timestamp')).toEqual([
      { cost: (5098 * 3 + 512 * 15) / 1e6 },
      { cost: (6120 * 2 + 301 * 10) / 1e6 },
    ]);
    writeFileSync(file, `${HEADER}\ngpt-5,2025-01-01,USD,1,1,,\n`);
    expect(runCli(['prices', 'import', file, '--target', sample.target]).code).toBe(0);
    const shown = runCli(['prices', 'show', '--json', '--target', sample.target]);
    expect(JSON.parse(shown.stdout).prices).toEqual([
      expect.objectContaining({ model: 'gpt-5', valid_from: '2025-01-01T00:00:00Z', currency: 'USD' }),
    ]);
    expect(query(sample.target, 'SELECT count(cost) AS priced FROM v_usage_cost')).toEqual([{ priced: 0 }]);
  });

  it('an invalid file exits 2 with PRICE_TABLE_INVALID and leaves the table as it was', () => {
    writeFileSync(file, `${HEADER}\nclaude-4-sonnet,2025-01-01,USD,x,1,,\n`);
    const refused = runCli(['prices', 'import', '--json', file, '--target', sample.target]);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stderr).error).toMatchObject({
      code: 'PRICE_TABLE_INVALID',
      details: { row: 2, field: 'input_per_million' },
    });
    expect(query(sample.target, 'SELECT model FROM model_prices')).toEqual([{ model: 'gpt-5' }]);
  });

  it('a later run keeps the imported price table', () => {
    const run = runCli(['run', '--json', '--cursor-user-dir', sample.userDir, '--target', sample.target]);
    expect(run.code, run.stderr).toBe(0);
    expect(query(sample.target, 'SELECT model FROM model_prices')).toEqual([{ model: 'gpt-5' }]);
  });
});
