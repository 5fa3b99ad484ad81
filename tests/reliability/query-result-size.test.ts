/**
 * Archive trust, class 10: `etl query` results around the row limits (fixtures/hostile/query-size-cases.ts)
 * print exactly the rows up to the limit, in order, page by page, with a notice when cut; a large
 * result streams through a child whose peak RSS stays bounded.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_CAP,
  LARGE_RESULT,
  type ResultSizeCase,
  resultSizeCases,
  resultSizeSql,
} from '../../fixtures/hostile/query-size-cases.js';
import { CLI, tempDir } from '../helpers/run-cli.js';
import { loadSample } from '../helpers/sample-warehouse.js';
import { runEtlInProcess } from './harness/etl-in-process.js';

/** Loose bound on the child's peak RSS: a result held whole (≈120 MB of JSON, as strings and objects) exceeds it. */
const RSS_BOUND_KIB = 320 * 1024;
const NOTICE =
  /^only the first (\d+) rows are shown: raise --limit \(up to 1000000\) or page with LIMIT\/OFFSET$/;

function tailOf(path: string, bytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const read = readSync(fd, buffer, 0, bytes, Math.max(0, statSync(path).size - bytes));
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function argsOf(c: ResultSizeCase, target: string, json: boolean): string[] {
  return [
    'query',
    ...(json ? ['--json'] : []),
    ...(c.limit === undefined ? [] : ['--limit', String(c.limit)]),
    '--target',
    target,
    resultSizeSql(c),
  ];
}

describe('archive trust: query results are paged up to a clear limit and streamed', () => {
  let duckdb: string;
  let parquet: string;
  let tmp: string;
  beforeAll(() => {
    duckdb = loadSample('duckdb').target;
    parquet = loadSample('parquet').target;
    tmp = tempDir('etl-size-tmp-');
  }, 120_000);

  for (const c of resultSizeCases()) {
    const limit = c.limit ?? DEFAULT_CAP;
    const shown = Math.min(c.rows, limit);
    const cut = c.rows > limit;
    it(`${c.name} (limit ${limit}): ${shown} rows in order${cut ? ', cut with a notice' : ''}, table and --json`, {
      timeout: 120_000,
    }, async () => {
      // The cases alternate targets so both read paths meet every boundary kind.
      const target = c.rows % 2 === 0 ? duckdb : parquet;
      const json = await runEtlInProcess(argsOf(c, target, true), tmp);
      expect(json.code, json.stderr).toBe(0);
      const envelope = JSON.parse(json.stdout) as {
        rows: { n: number }[];
        truncated: boolean;
        limit: number;
      };
      expect({ rows: envelope.rows.length, truncated: envelope.truncated, limit: envelope.limit }).toEqual({
        rows: shown,
        truncated: cut,
        limit,
      });
      expect(envelope.rows.every((row, i) => row.n === i)).toBe(true);
      const human = await runEtlInProcess(argsOf(c, target, false), tmp);
      expect(human.code, human.stderr).toBe(0);
      const lines = human.stdout.trimEnd().split('\n');
      expect(lines.length).toBe(2 + shown + 1 + (cut ? 1 : 0));
      expect(lines[2 + shown]).toBe(`(${shown} rows)`);
      if (cut) expect(NOTICE.exec(lines.at(-1)!)?.[1]).toBe(String(limit));
      expect(lines[2 + shown - 1]?.split(' ')[0]).toBe(String(shown - 1));
    });
  }

  it('a query failing after its first pages prints nothing on stdout and exits 2 typed', {
    timeout: 60_000,
  }, async () => {
    const sql = `select case when range < ${DEFAULT_CAP / 2} then range else cast('x' || range as int) end as n from range(${2 * DEFAULT_CAP})`;
    for (const json of [true, false]) {
      const result = await runEtlInProcess(
        ['query', ...(json ? ['--json'] : []), '--target', duckdb, sql],
        tmp,
      );
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
      expect(result.stderr).toContain('QUERY_FAILED');
    }
  });

  it('a reader closing the pipe early (`| head`) ends the query quietly with exit 0', {
    timeout: 60_000,
  }, () => {
    for (const json of [true, false]) {
      const args = argsOf({ ...LARGE_RESULT, width: 16 }, duckdb, json).map(
        (a) => `'${a.replaceAll("'", "'\\''")}'`,
      );
      const child = spawnSync(
        'bash',
        [
          '-c',
          `'${process.execPath}' '${CLI}' ${args.join(' ')} | head -c 100 > /dev/null; echo "\${PIPESTATUS[0]}"`,
        ],
        { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp }, timeout: 50_000, killSignal: 'SIGKILL' },
      );
      expect({ exit: child.stdout.trim(), stderr: child.stderr }).toEqual({ exit: '0', stderr: '' });
    }
  });

  for (const json of [true, false]) {
    it(`${LARGE_RESULT.name} ${json ? '--json' : 'table'}: streams ${LARGE_RESULT.rows} rows under a bounded RSS`, {
      timeout: 180_000,
    }, () => {
      const dir = tempDir('etl-size-large-');
      const out = join(dir, 'stdout');
      const rss = join(dir, 'rss');
      const fd = openSync(out, 'w');
      let status: number | null;
      try {
        const child = spawnSync(
          '/usr/bin/time',
          ['-f', '%M', '-o', rss, process.execPath, CLI, ...argsOf(LARGE_RESULT, duckdb, json)],
          {
            stdio: ['ignore', fd, 'pipe'],
            env: { ...process.env, TMPDIR: tmp },
            timeout: 170_000,
            killSignal: 'SIGKILL',
          },
        );
        status = child.status;
        expect(child.stderr.toString()).toBe('');
      } finally {
        closeSync(fd);
      }
      expect(status).toBe(0);
      const peakKib = Number(readFileSync(rss, 'utf8').trim().split('\n').at(-1));
      expect(peakKib).toBeGreaterThan(0);
      expect(peakKib).toBeLessThan(RSS_BOUND_KIB);
      console.info(
        `${LARGE_RESULT.name} ${json ? 'json' : 'table'}: peak RSS ${Math.round(peakKib / 1024)} MiB`,
      );
      // Every row was written: about 1 KB of text per JSON row, a 60-character cell per table row.
      expect(statSync(out).size).toBeGreaterThan(LARGE_RESULT.rows * (json ? LARGE_RESULT.width : 100));
      const tail = tailOf(out, 200);
      if (json) expect(tail.endsWith('],"truncated":false,"limit":1000000,"diagnostics":[]}\n')).toBe(true);
      else expect(tail.endsWith(`(${LARGE_RESULT.rows} rows)\n`)).toBe(true);
    });
  }
});
