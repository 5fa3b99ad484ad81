import { describe, expect, it } from 'vitest';
import { parsePriceTable } from '../../../src/load/prices/price-file.js';
import { UsageError } from '../../../src/shared/errors.js';

const HEADER =
  'model,valid_from,currency,input_per_million,output_per_million,cache_read_per_million,cache_write_per_million';

function refusal(text: string): Record<string, unknown> {
  try {
    parsePriceTable(text);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return { code: (error as UsageError).code, ...(error as UsageError).details };
  }
  throw new Error('accepted');
}

describe('parsePriceTable', () => {
  it('reads CSV: empty cells are unpriced, dates are UTC midnight, rows ordered by model and time', () => {
    const rows = parsePriceTable(
      `${HEADER}\r\nm-b,2025-02-01T12:00:00+02:00,EUR,1,2,,\n"m,a",2025-01-01,USD,3.5,15,0.3,3.75\n\n`,
    );
    expect(rows).toEqual([
      {
        model: 'm,a',
        valid_from: Date.UTC(2025, 0, 1),
        currency: 'USD',
        input_per_million: 3.5,
        output_per_million: 15,
        cache_read_per_million: 0.3,
        cache_write_per_million: 3.75,
      },
      {
        model: 'm-b',
        valid_from: Date.UTC(2025, 1, 1, 10),
        currency: 'EUR',
        input_per_million: 1,
        output_per_million: 2,
        cache_read_per_million: null,
        cache_write_per_million: null,
      },
    ]);
  });

  it('reads a JSON array with the same members; absent prices are unpriced', () => {
    expect(
      parsePriceTable(
        JSON.stringify([{ model: 'm', valid_from: '2025-03-01', currency: 'USD', input_per_million: 2 }]),
      ),
    ).toEqual([
      {
        model: 'm',
        valid_from: Date.UTC(2025, 2, 1),
        currency: 'USD',
        input_per_million: 2,
        output_per_million: null,
        cache_read_per_million: null,
        cache_write_per_million: null,
      },
    ]);
  });

  it('refuses the whole file, naming the row and field', () => {
    expect(refusal(`${HEADER}\nm,2025-01-01,USD,-1,1,,`)).toMatchObject({
      code: 'PRICE_TABLE_INVALID',
      row: 2,
      field: 'input_per_million',
    });
    expect(refusal(`${HEADER}\nm,2025-01-01,usd,1,1,,`)).toMatchObject({ row: 2, field: 'currency' });
    expect(refusal(`${HEADER}\nm,March 8,USD,1,1,,`)).toMatchObject({ row: 2, field: 'valid_from' });
    // A zoneless time would depend on the machine's zone: refused.
    expect(refusal(`${HEADER}\nm,2025-01-01T10:00,USD,1,1,,`)).toMatchObject({ field: 'valid_from' });
    expect(refusal(`${HEADER}\nm,2025-01-01,USD,1,1\n`)).toMatchObject({ row: 2 });
    expect(refusal('model,price\nm,1\n')).toMatchObject({ row: 1, problem: 'unknown column "price"' });
    expect(refusal(`${HEADER}\nm,2025-01-01,USD,1,,,\nm,2025-01-01T00:00:00Z,USD,2,,,`)).toMatchObject({
      row: 3,
      field: 'valid_from',
    });
    expect(refusal('[{"model":"m","valid_from":"2025-01-01","currency":"USD","extra":1}]')).toMatchObject({
      row: 1,
    });
    expect(refusal('[{"model":"m"')).toMatchObject({ problem: 'not valid JSON' });
    expect(refusal('{"model":"m"}')).toMatchObject({ code: 'PRICE_TABLE_INVALID' });
    expect(refusal('')).toMatchObject({ problem: 'empty file' });
  });
});
