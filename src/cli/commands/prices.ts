/**
 * `etl prices import FILE` replaces the target's price table from a CSV or JSON file;
 * `etl prices show` prints it. Prices only feed `v_usage_cost`; none is built in (docs/usage.md).
 */
import { readFileSync } from 'node:fs';
import { runQuery } from '../../load/duckdb/read-only-query.js';
import { parsePriceTable } from '../../load/prices/price-file.js';
import { replaceModelPrices } from '../../load/prices/replace-prices.js';
import { withReadOnlyTarget } from '../../load/read-only-target.js';
import { UsageError } from '../../shared/errors.js';
import { formatTable } from '../format-table.js';
import type { Output } from '../output.js';
import { parseTargetSpec } from '../target-spec.js';

const SHOW_SQL = `SELECT model, strftime(timezone('UTC', valid_from), '%Y-%m-%dT%H:%M:%SZ') AS valid_from, currency,
  input_per_million, output_per_million, cache_read_per_million, cache_write_per_million
FROM model_prices ORDER BY model, valid_from`;

function readPriceFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new UsageError('PRICE_TABLE_INVALID', 'The price table file cannot be read', {
      problem: 'unreadable-file',
    });
  }
}

export async function pricesImportCommand(
  file: string,
  flags: { target?: string },
  output: Output,
): Promise<number> {
  const location = parseTargetSpec(flags.target);
  const rows = parsePriceTable(readPriceFile(file));
  await replaceModelPrices(location, rows);
  const models = new Set(rows.map((r) => r.model)).size;
  output.success(
    { prices: { rows: rows.length, models } },
    `imported ${rows.length} price row(s) for ${models} model(s); the previous price table is replaced`,
  );
  return 0;
}

export async function pricesShowCommand(flags: { target?: string }, output: Output): Promise<number> {
  const location = parseTargetSpec(flags.target);
  const result = await withReadOnlyTarget(location, (connection) => runQuery(connection, SHOW_SQL));
  output.success(
    { prices: result.rows },
    result.rows.length === 0
      ? 'no price table imported (etl prices import FILE)'
      : formatTable(result.columns, result.rows),
  );
  return 0;
}
