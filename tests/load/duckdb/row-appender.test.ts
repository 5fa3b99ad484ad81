import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '../../../src/load/duckdb/duckdb-api.js';
import { appendToTable } from '../../../src/load/duckdb/row-appender.js';

const table = {
  name: 't',
  columns: {
    instant: { kind: 'timestamp', nullable: true },
    label: { kind: 'text', nullable: true },
  },
};

describe('appendToTable', () => {
  it.each(['UTC', 'America/New_York', 'Asia/Kolkata'])(
    'a timestamp column holds the exact instant of its epoch milliseconds in session zone %s',
    async (zone) => {
      const instance = await DuckDBInstance.create(':memory:');
      const connection = await instance.connect();
      await connection.run(`SET TimeZone = '${zone}'`);
      await connection.run('CREATE TABLE t (instant TIMESTAMPTZ, label VARCHAR)');
      const instants = [0, 1_700_000_000_123, -5_000, 253_402_300_799_999];
      await appendToTable(connection, table, [
        ...instants.map((at) => ({ instant: at, label: String(at) })),
        { instant: null, label: 'none' },
      ]);
      const rows = (
        await connection.runAndReadAll('SELECT epoch_ms(instant) AS ms, label FROM t ORDER BY rowid')
      ).getRowObjects();
      expect(rows).toEqual([
        ...instants.map((at) => ({ ms: BigInt(at), label: String(at) })),
        { ms: null, label: 'none' },
      ]);
      connection.closeSync();
      instance.closeSync();
    },
  );
});
