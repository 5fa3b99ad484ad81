/**
 * The read surfaces' sandbox: over either target a query reads the warehouse and nothing else.
 * The hostile statements come from a generator: each escape in several spellings.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../../src/load/duckdb/read-only-query.js';
import { withReadOnlyTarget } from '../../../src/load/read-only-target.js';
import { tempDir } from '../../helpers/run-cli.js';
import { loadSample } from '../../helpers/sample-warehouse.js';

const SECRET = 'sandbox-secret-9f2c';

function escapes(outside: string, sink: string, dataset: string): string[] {
  const reads = [
    `select * from read_text('${outside}')`,
    `select * from read_csv('${outside}')`,
    `select * from read_blob('${outside}')`,
    `select * from glob('${join(outside, '..')}/*')`,
    `select * from '${outside}'`,
    `select * from read_parquet('https://example.invalid/x.parquet')`,
    `select * from read_json('http://127.0.0.1:9/x.json')`,
  ];
  const statements = [
    `copy (select 1) to '${sink}.csv'`,
    `copy sessions to '${sink}.parquet' (format parquet)`,
    `export database '${sink}-db'`,
    `attach '${sink}.duckdb' as evil (read_only false)`,
    `attach '${sink}.duckdb' as evil`,
    'install httpfs',
    'load httpfs',
    'set enable_external_access = true',
    "set allowed_directories = ['/']",
    'set lock_configuration = false',
    "pragma enable_profiling = 'json'",
    `create table t as select 1`,
    `copy (select 1) to '${dataset}/CURRENT'`,
    `select 1; copy (select 1) to '${sink}.csv'`,
  ];
  const spelled = (sql: string): string[] => [
    sql,
    sql.toUpperCase().replaceAll(outside.toUpperCase(), outside).replaceAll(sink.toUpperCase(), sink),
    `/* note */ ${sql} -- trailing`,
    `${sql};`,
  ];
  return [
    ...reads.flatMap((sql) => [
      ...spelled(sql),
      `with x as (${sql}) select * from x`,
      `select (select count(*) from (${sql}))`,
    ]),
    ...statements.flatMap(spelled),
  ];
}

for (const kind of ['duckdb', 'parquet'] as const) {
  describe(`etl query over ${kind} is read-only for the warehouse only`, () => {
    let location: { kind: 'duckdb' | 'parquet'; path: string };
    let outside: string;
    let sinkDir: string;
    beforeAll(() => {
      const sample = loadSample(kind);
      location = { kind, path: sample.target.slice(kind.length + 1) };
      const dir = tempDir();
      outside = join(dir, 'outside.csv');
      writeFileSync(outside, `secret\n${SECRET}\n`);
      sinkDir = tempDir();
    });

    it('every escape in every spelling fails typed (QUERY_FAILED), echoes nothing from outside, writes nothing', async () => {
      const before = readdirSync(
        location.kind === 'parquet' ? location.path : join(location.path, '..'),
      ).sort();
      const cases = escapes(outside, join(sinkDir, 'sink'), location.path);
      expect(cases.length).toBeGreaterThan(60);
      // One connection for all: a statement that got through would change what the next one sees.
      await withReadOnlyTarget(location, async (connection) => {
        for (const sql of cases) {
          const outcome = await runQuery(connection, sql).then(
            (result) => ({ ok: true, text: JSON.stringify(result) }),
            (error) => ({ ok: false, code: error.code, exit: error.exitCode, text: String(error.message) }),
          );
          expect({ sql, ...outcome, text: undefined }).toMatchObject({
            sql,
            ok: false,
            code: 'QUERY_FAILED',
            exit: 2,
          });
          expect(outcome.text).not.toContain(SECRET);
        }
      });
      expect(readdirSync(sinkDir)).toEqual([]);
      expect(
        readdirSync(location.kind === 'parquet' ? location.path : join(location.path, '..')).sort(),
      ).toEqual(before);
      expect(existsSync(join(process.env.HOME ?? '/nonexistent', '.duckdb', 'extensions', 'httpfs'))).toBe(
        false,
      );
    });

    it('reads of the warehouse itself still work (tables, views, EXPLAIN, DESCRIBE)', async () => {
      for (const sql of [
        'select count(*) as n from sessions',
        'select count(*) as n from messages m join sessions s using (session_id)',
        'explain select * from sessions',
        'describe sessions',
        'select 1 as one;',
      ]) {
        const result = await withReadOnlyTarget(location, (c) => runQuery(c, sql));
        expect(result.rows.length, sql).toBeGreaterThan(0);
      }
    });

    it('a large result is read up to the limit, never whole, and says it was cut', async () => {
      for (const limit of [1, 10, 2047, 2048, 2049, 5000]) {
        const result = await withReadOnlyTarget(location, (c) =>
          runQuery(c, 'select range as n from range(3000000)', limit),
        );
        expect(result.rows.length).toBe(limit);
        expect(result.truncated).toBe(true);
      }
      const exact = await withReadOnlyTarget(location, (c) =>
        runQuery(c, 'select range from range(2048)', 2048),
      );
      expect({ rows: exact.rows.length, truncated: exact.truncated }).toEqual({
        rows: 2048,
        truncated: false,
      });
    });
  });
}
