import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { loadSample } from '../helpers/sample-warehouse.js';

describe('etl query: one read statement, a row limit with a message, visible control characters', () => {
  let target: string;
  beforeAll(() => {
    target = loadSample('duckdb').target;
  });

  it('a result beyond --limit prints the first rows and says how to see more (table and --json)', () => {
    const human = runCli([
      'query',
      '--limit',
      '5',
      '--target',
      target,
      'select range as n from range(100000)',
    ]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('(5 rows)');
    expect(human.stdout).toMatch(/only the first 5 rows are shown: raise --limit/);
    const json = JSON.parse(
      runCli(['query', '--json', '--limit', '3', '--target', target, 'select range as n from range(10)'])
        .stdout,
    );
    expect(json).toMatchObject({ rows: [{ n: 0 }, { n: 1 }, { n: 2 }], truncated: true, limit: 3 });
    const whole = JSON.parse(runCli(['query', '--json', '--target', target, 'select 1 as n']).stdout);
    expect(whole).toMatchObject({ truncated: false, limit: 10000 });
  });

  it.each(['0', '-1', '1.5', 'ten', '1000001'])('--limit %s is a usage error (exit 2)', (limit) => {
    const result = runCli(['query', '--json', '--limit', limit, '--target', target, 'select 1']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr).error.code).toBe('USAGE_ERROR');
  });

  it.each([
    ['checkpoint', 'not-a-read-statement'],
    ['set threads = 1', 'not-a-read-statement'],
    ['select 1; select 2', 'not-one-statement'],
    ["copy (select 1) to 'x.csv'", 'outside-warehouse'],
    ['select * from no_such_table', 'failed'],
  ])('%s exits 2 with QUERY_FAILED (%s)', (sql, reason) => {
    const result = runCli(['query', '--json', '--target', target, sql]);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'QUERY_FAILED', details: { reason } });
  });

  it('escape sequences stored in the data never reach the terminal raw', () => {
    const result = runCli([
      'query',
      '--target',
      target,
      "select chr(27) || '[2J' || chr(27) || ']0;x' || chr(7) as t",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(result.stdout).toContain('\\e[2J\\e]0;x\\x07');
  });
});
