import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { sqlString } from '../../../src/load/duckdb/sql-string.js';

describe('sqlString', () => {
  it('is a literal DuckDB reads back as the same string, quotes and all', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      for (const value of ["/tmp/o'brien's dir", "''", '', 'ü\\n;--']) {
        const rows = (await connection.runAndReadAll(`SELECT ${sqlString(value)} AS v`)).getRowObjects();
        expect(rows[0]!.v).toBe(value);
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
