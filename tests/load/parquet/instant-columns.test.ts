import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentState } from '../../helpers/dataset-files.js';
import { runCli } from '../../helpers/run-cli.js';
import { loadSample, type SampleWarehouse } from '../../helpers/sample-warehouse.js';

const TIME_COLUMNS = [
  ['sessions', 'created_at'],
  ['sessions', 'updated_at'],
  ['messages', 'timestamp'],
  ['etl_runs', 'started_at'],
] as const;

/** What another engine sees: DuckDB's own reader, in a session time zone that is not UTC. */
async function readElsewhere(
  files: string,
  column: string,
  zone: string,
): Promise<{ types: string[]; ms: string[] }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`SET TimeZone = '${zone}'`);
    const reader = await connection.runAndReadAll(
      `SELECT typeof(${column}) AS type, epoch_ms(${column})::VARCHAR AS ms FROM read_parquet('${files}') ORDER BY ms`,
    );
    const rows = reader.getRowObjectsJson() as { type: string; ms: string }[];
    return { types: [...new Set(rows.map((r) => r.type))], ms: rows.map((r) => r.ms) };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('Parquet times are UTC-adjusted instants (isAdjustedToUTC = true)', () => {
  let sample: SampleWarehouse;
  let state: string;
  beforeAll(() => {
    sample = loadSample('parquet');
    const dir = sample.target.slice('parquet:'.length);
    state = join(dir, 'states', currentState(dir));
  });

  it('an engine reading the files in Los Angeles or Chatham time reads the instants etl query reports', async () => {
    for (const [table, column] of TIME_COLUMNS) {
      const query = runCli([
        'query',
        '--json',
        '--target',
        sample.target,
        `SELECT epoch_ms(${column})::VARCHAR AS ms FROM ${table} ORDER BY ms`,
      ]);
      expect(query.code, query.stderr).toBe(0);
      const expected = (JSON.parse(query.stdout).rows as { ms: string }[]).map((r) => r.ms);
      expect(expected.length).toBeGreaterThan(0);
      for (const zone of ['America/Los_Angeles', 'Pacific/Chatham']) {
        const read = await readElsewhere(`${state}/${table}/**/*.parquet`, column, zone);
        expect(read.types, `${table}.${column}`).toEqual(['TIMESTAMP WITH TIME ZONE']);
        expect(read.ms, `${table}.${column} in ${zone}`).toEqual(expected);
      }
    }
  });

  it('the Parquet schema marks every time column adjusted to UTC', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      for (const [table, column] of TIME_COLUMNS) {
        const reader = await connection.runAndReadAll(
          `SELECT DISTINCT logical_type::VARCHAR AS t FROM parquet_schema('${state}/${table}/**/*.parquet') WHERE name = '${column}'`,
        );
        const types = (reader.getRowObjectsJson() as { t: string }[]).map((r) => r.t);
        expect(types.length, `${table}.${column}`).toBe(1);
        expect(types[0], `${table}.${column}`).toContain('isAdjustedToUTC=1');
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
