import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userDirUnder } from '../../fixtures/hostile/baseline-corpus.js';
import { storeSources } from '../../fixtures/hostile/baseline-sources.js';
import {
  expectedMessages,
  MANY_LATER_ID,
  MANY_SESSION_ID,
  manyMessagesCases,
  writeManyMessagesCorpus,
} from '../../fixtures/hostile/many-messages-cases.js';
import { tempDir } from '../helpers/run-cli.js';
import { type EtlResult, runEtl, tempResidue } from './harness/etl-process.js';
import { SOAK } from './harness/hostile-runner.js';

/** 10k messages in the lane; the soak adds 100k and 1M (`etl verify` once failed on a 1M-message session). */
const COUNTS = SOAK ? [10_000, 100_000, 1_000_000] : [10_000];
/** The bench's usage reporter: the child writes its own peak RSS at exit. */
const USAGE_REPORTER = resolve('dist/bench/report-usage.js');
const GiB = 1024 * 1024 * 1024;

describe('archive trust: one session with many messages loads, verifies, exports and queries (source-read-limits/v1: "sqliteRowCount 5,000,000 rows One logical-session hydration")', () => {
  for (const c of manyMessagesCases(COUNTS)) {
    it(`${c.name}: full run, --since-last replacing it, verify, export (parquet, archive-jsonl) and query; peak RSS bounded`, {
      timeout: 3_600_000,
    }, () => {
      const root = tempDir('etl-many-');
      const tmp = join(root, 'tmp');
      const userDir = userDirUnder(root);
      const target = `duckdb:${join(root, 'out', 'w.duckdb')}`;
      const sources = ['--cursor-user-dir', userDir, ...storeSources(root)];
      const timeoutMs = SOAK ? 3_000_000 : 300_000;
      const peaks: Record<string, number> = {};
      /** Runs one command, recording the child's peak RSS under its name. */
      const etl = (name: string, args: string[]): EtlResult => {
        const usage = join(root, `${name}.usage.json`);
        const result = runEtl(args, {
          tmpDir: tmp,
          timeoutMs,
          preloads: [USAGE_REPORTER],
          env: { BENCH_USAGE_OUT: usage },
        });
        expect(result.timedOut, name).toBe(false);
        expect(result.stderr, name).not.toMatch(/INTERNAL_ERROR/);
        expect(result.code, `${name}: ${result.stderr}`).toBe(0);
        peaks[name] = (JSON.parse(readFileSync(usage, 'utf8')) as { maxRssKb: number }).maxRssKb * 1024;
        return result;
      };

      writeManyMessagesCorpus(root, userDir, c);
      etl('run', ['run', '--json', ...sources, '--target', target]);
      writeManyMessagesCorpus(root, userDir, c, true);
      const later = JSON.parse(
        etl('since-last', ['run', '--json', '--since-last', ...sources, '--target', target]).stdout,
      ) as {
        run: { counts: { sessionsInserted: number; sessionsReplaced: number } };
      };
      expect(later.run.counts).toMatchObject({ sessionsInserted: 1, sessionsReplaced: 1 });
      expect(
        JSON.parse(etl('verify', ['verify', '--json', '--target', target]).stdout).verify.problems,
      ).toEqual([]);
      etl('export-parquet', [
        'export',
        '--format',
        'parquet',
        '--out',
        join(root, 'parquet'),
        '--target',
        target,
      ]);
      expect(existsSync(join(root, 'parquet'))).toBe(true);
      const jsonl = join(root, 'archive.jsonl');
      etl('export-archive', ['export', '--format', 'archive-jsonl', '--out', jsonl, '--target', target]);
      const exported = readFileSync(jsonl, 'utf8').trim().split('\n');
      expect(exported.filter((line) => line.includes(MANY_SESSION_ID))).toHaveLength(1);
      const query = etl('query', [
        'query',
        '--json',
        '--target',
        target,
        `SELECT (SELECT count(*) FROM messages WHERE session_id = '${MANY_SESSION_ID}') AS n, (SELECT message_count FROM sessions WHERE session_id = '${MANY_SESSION_ID}') AS counted, (SELECT count(*) FROM sessions WHERE session_id = '${MANY_LATER_ID}') AS later`,
      ]);
      const row = (JSON.parse(query.stdout) as { rows: Record<string, number>[] }).rows[0]!;
      expect(row).toEqual({ n: expectedMessages(c, true), counted: expectedMessages(c, true), later: 1 });
      // Bounded memory: far below the machine, whatever the session's size (figures printed for the docs).
      console.log(
        `${c.name} peak RSS MiB`,
        JSON.stringify(
          Object.fromEntries(Object.entries(peaks).map(([k, v]) => [k, Math.round(v / 2 ** 20)])),
        ),
      );
      for (const [name, bytes] of Object.entries(peaks))
        expect(bytes, name).toBeLessThan((c.messages >= 1_000_000 ? 8 : 2) * GiB);
      expect(tempResidue(tmp)).toEqual([]);
      rmSync(root, { recursive: true, force: true });
    });
  }
});
