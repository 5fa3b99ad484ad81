import { beforeAll, describe, expect, it } from 'vitest';
import { QUERY_PAGE_ROWS, streamQuery } from '../../../src/load/duckdb/read-only-query.js';
import { withReadOnlyTarget } from '../../../src/load/read-only-target.js';
import { loadSample } from '../../helpers/sample-warehouse.js';

describe('streamQuery hands a result over page by page, up to the limit', () => {
  let path: string;
  beforeAll(() => {
    path = loadSample('duckdb').target.slice('duckdb:'.length);
  });

  it.each([
    [0, 10, 0, false],
    [5, 10, 5, false],
    [QUERY_PAGE_ROWS, QUERY_PAGE_ROWS, QUERY_PAGE_ROWS, false],
    [QUERY_PAGE_ROWS + 1, QUERY_PAGE_ROWS, QUERY_PAGE_ROWS, true],
    [10_000, 4097, 4097, true],
    [3 * QUERY_PAGE_ROWS + 7, 1_000_000, 3 * QUERY_PAGE_ROWS + 7, false],
  ])('%i rows, limit %i: %i rows handed over, truncated %s', async (rows, limit, handed, truncated) => {
    const pages: number[][] = [];
    const result = await withReadOnlyTarget({ kind: 'duckdb', path }, (c) =>
      streamQuery(c, `select range as n from range(${rows})`, limit, (columns, page) => {
        expect(columns).toEqual(['n']);
        pages.push(page.map((r) => r.n as number));
        return true;
      }),
    );
    expect(result).toEqual({ columns: ['n'], rowCount: handed, truncated });
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(QUERY_PAGE_ROWS + 2048);
    expect(pages.flat()).toEqual(Array.from({ length: handed }, (_, i) => i));
  });

  it('stops reading when the page handler says nobody reads any more', async () => {
    let calls = 0;
    const result = await withReadOnlyTarget({ kind: 'duckdb', path }, (c) =>
      streamQuery(c, 'select range as n from range(100000)', 1_000_000, () => ++calls < 2),
    );
    expect(calls).toBe(2);
    expect(result.truncated).toBe(false);
    expect(result.rowCount).toBeLessThan(100_000);
  });
});
