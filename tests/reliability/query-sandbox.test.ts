/**
 * Archive trust, class 9: `etl query` and `etl export --where` read the warehouse only. Generated
 * escapes over both targets: typed exit, nothing echoed from outside, the case tree unchanged,
 * no TMPDIR residue, `etl verify` clean, no network.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  querySandboxCases,
  type SandboxCase,
  type SandboxPlaces,
  whereSandboxCases,
} from '../../fixtures/hostile/query-sandbox-cases.js';
import { buildSampleCorpus } from '../../fixtures/sample/sample-corpus.js';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { runEtlInProcess } from './harness/etl-in-process.js';
import { type EtlResult, preloadPath, runEtl, STACK_TRACE, tempResidue } from './harness/etl-process.js';
import { treeSnapshot } from './harness/tree-snapshot.js';

const SECRET = 'sandbox-canary-7d41e0';
const SEED = Number(process.env.ETL_SANDBOX_SEED ?? 3009);

/** strace with a seccomp filter: native socket calls DuckDB would make are seen, not only Node's. */
function straceWorks(): boolean {
  return spawnSync('strace', ['-f', '-qq', '-e', 'trace=socket', '-o', '/dev/null', 'true']).status === 0;
}

/** AF_INET/AF_INET6 sockets or connects a traced child made (DNS included). */
function inetCalls(log: string): string[] {
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => /AF_INET6?\b/.test(line));
}

function argsOf(c: SandboxCase, target: string, out: string): string[] {
  return c.surface === 'query'
    ? ['query', '--target', target, '--', c.text]
    : ['export', '--format', 'jsonl', '--out', out, '--target', target, '--where', c.text];
}

const EXPECTED_CODES: Record<SandboxCase['surface'], readonly string[]> = {
  query: ['QUERY_FAILED'],
  'export-where': ['EXPORT_WHERE_INVALID', 'EXPORT_QUERY_FAILED'],
};

for (const kind of ['duckdb', 'parquet'] as const) {
  describe(`archive trust: etl query and export --where over ${kind} stay inside the warehouse`, () => {
    let root: string;
    let target: string;
    let places: SandboxPlaces;
    let tmp: string;
    let home: string;
    let previousHome: string | undefined;
    let cases: SandboxCase[];

    beforeAll(() => {
      root = tempDir('etl-sandbox-');
      const { userDir } = buildSampleCorpus(join(tempDir('etl-sandbox-src-'), 'cursor'));
      target =
        kind === 'duckdb' ? `duckdb:${join(root, 'wh', 'w.duckdb')}` : `parquet:${join(root, 'wh', 'ds')}`;
      const loaded = runCli(['run', '--json', '--cursor-user-dir', userDir, '--target', target]);
      if (loaded.code !== 0) throw new Error(`sample run failed: ${loaded.stderr}`);
      places = {
        outsideFile: join(root, 'outside', 'secret.csv'),
        outsideDir: join(root, 'outside'),
        sink: join(root, 'sink', 'out'),
      };
      mkdirSync(places.outsideDir);
      writeFileSync(places.outsideFile, `secret\n${SECRET}\n`);
      mkdirSync(join(root, 'sink'));
      // The private TMPDIR is checked for residue instead: verify spills there and cleans up.
      tmp = tempDir('etl-sandbox-tmp-');
      home = join(root, 'home');
      mkdirSync(home);
      // DuckDB would install extensions below $HOME/.duckdb: a HOME under the case root is watched too.
      previousHome = process.env.HOME;
      process.env.HOME = home;
      // Each target draws its own spellings, so the two together cover more of them.
      const seed = SEED + (kind === 'duckdb' ? 0 : 7);
      cases = [...querySandboxCases(places, seed, 1), ...whereSandboxCases(places, seed + 1, 12)];
    }, 120_000);
    afterAll(() => {
      process.env.HOME = previousHome;
    });

    it('every generated escape exits 2 typed, echoes nothing from outside and changes nothing', {
      timeout: 240_000,
    }, async () => {
      expect(cases.length).toBeGreaterThan(70);
      const before = treeSnapshot(root);
      const failures: string[] = [];
      for (const [index, c] of cases.entries()) {
        // Human and --json outputs alternate: both error paths are checked without doubling the cases.
        const json = index % 2 === 0;
        const args = argsOf(c, target, join(root, 'export-out'));
        const result = await runEtlInProcess(json ? ['--json', ...args] : args, tmp);
        const problems = outcomeProblems(c, result, json, root);
        if (JSON.stringify(treeSnapshot(root)) !== JSON.stringify(before)) problems.push('tree changed');
        if (problems.length > 0)
          failures.push(`${c.name} (${json ? 'json' : 'human'}): ${problems.join('; ')}`);
      }
      expect(failures).toEqual([]);
      const verify = await runEtlInProcess(['verify', '--json', '--target', target], tmp);
      expect(verify.code, verify.stderr).toBe(0);
      expect(treeSnapshot(root)).toEqual(before);
      expect(tempResidue(tmp)).toEqual([]);
    });

    it('network and extension escapes in a child reach no socket (Node or native) and install nothing', {
      timeout: 120_000,
    }, () => {
      const logs = tempDir('etl-sandbox-logs-');
      const log = join(logs, 'network.log');
      const trace = join(logs, 'strace.log');
      const traced = straceWorks();
      const networkCases = cases.filter((c) => c.kind === 'network' && c.surface === 'query');
      expect(networkCases.length).toBeGreaterThanOrEqual(10);
      // Four children per target, the two targets splitting the escapes between them.
      const mine = networkCases.filter((_, i) => i % 2 === (kind === 'duckdb' ? 0 : 1)).slice(0, 4);
      const before = treeSnapshot(root);
      for (const c of mine) {
        const result = runEtl(['query', '--json', '--target', target, '--', c.text], {
          tmpDir: tmp,
          preloads: [preloadPath('deny-network')],
          env: { ETL_NETWORK_LOG: log, HOME: home },
          ...(traced
            ? { command: ['strace', '-f', '-qq', '--seccomp-bpf', '-e', 'trace=socket,connect', '-o', trace] }
            : {}),
        });
        expect(outcomeProblems(c, result, true, root), c.name).toEqual([]);
        if (traced) expect(inetCalls(trace), c.name).toEqual([]);
      }
      expect(mine.length).toBe(4);
      expect(() => readFileSync(log, 'utf8')).toThrow();
      expect(treeSnapshot(root)).toEqual(before);
      expect(tempResidue(tmp)).toEqual([]);
    });
  });
}

/** What is wrong with one refused escape's outcome (nothing, when the refusal is as the contract says). */
function outcomeProblems(c: SandboxCase, result: EtlResult, json: boolean, root: string): string[] {
  const problems: string[] = [];
  if (result.code !== 2) problems.push(`exit ${result.code}`);
  if (result.stdout !== '') problems.push('stdout not empty');
  const code = json
    ? (() => {
        try {
          return String(JSON.parse(result.stderr).error.code);
        } catch {
          return 'stderr not JSON';
        }
      })()
    : (/^etl: error ([A-Z_]+):/.exec(result.stderr)?.[1] ?? 'no error line');
  if (!EXPECTED_CODES[c.surface].includes(code)) problems.push(`code ${code}`);
  if (result.stderr.includes(SECRET)) problems.push('outside content on stderr');
  if (result.stderr.includes(root)) problems.push('a path on stderr');
  if (STACK_TRACE.test(result.stderr)) problems.push('stack trace');
  return problems;
}
