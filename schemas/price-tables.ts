/**
 * The user-supplied price table (`etl prices import`, docs/usage.md#price-table): never filled by
 * a run and never hard-coded; `v_usage_cost` joins it. Replaced as a whole on each import.
 */
import { column, defineTable, nullable, type RowOf } from './table-definition.js';

export const modelPricesTable = defineTable(
  'model_prices',
  'Prices per million tokens by model and validity start, as imported by `etl prices import`; empty until then.',
  {
    model: column('text', 'Model name exactly as `usage.model` stores it.'),
    valid_from: column(
      'timestamp',
      'First instant (UTC) the price applies; it applies until the next `valid_from` of the model.',
    ),
    currency: column(
      'text',
      'Currency code of the prices (e.g. `USD`); costs are never summed across currencies.',
    ),
    input_per_million: nullable('double', 'Price of one million input tokens; NULL when not priced.'),
    output_per_million: nullable('double', 'Price of one million output tokens; NULL when not priced.'),
    cache_read_per_million: nullable(
      'double',
      'Price of one million cache-read tokens; NULL when not priced.',
    ),
    cache_write_per_million: nullable(
      'double',
      'Price of one million cache-write tokens; NULL when not priced.',
    ),
  },
);

export const PRICE_TABLES = [modelPricesTable] as const;
export type ModelPriceRow = RowOf<typeof modelPricesTable.columns>;
