import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSampleCorpus } from '../../fixtures/sample/sample-corpus.js';
import { DOCTOR_REPORT } from '../../schemas/doctor-report.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

describe('etl CLI contract', () => {
  it('--version and -V print the package version and exit 0', () => {
    for (const flag of ['--version', '-V']) {
      const { code, stdout } = runCli([flag]);
      expect(code).toBe(0);
      expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    }
  });

  it('no command prints the help and exits 2 without a stray error line; with --json an error object', () => {
    const human = runCli([]);
    expect(human.code).toBe(2);
    expect(human.stderr).toContain('Usage: etl');
    expect(human.stderr).not.toContain('USAGE_ERROR');
    const json = runCli(['--json']);
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'USAGE_ERROR' });
    expect(json.stderr).not.toContain('outputHelp');
  });

  it('--help lists the commands', () => {
    const { code, stdout } = runCli(['--help']);
    expect(code).toBe(0);
    for (const command of ['run', 'status', 'sources', 'query', 'verify'])
      expect(stdout).toMatch(new RegExp(`\\n  ${command} `));
  });

  it('an invalid --source-limit with --json exits 2 with the error object on stderr and an empty stdout', () => {
    const { code, stdout, stderr } = runCli(['run', '--json', '--source-limit', 'jsonlRecordBytes=1.5MiB']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const parsed = JSON.parse(stderr) as {
      error: { code: string; message: string; details: Record<string, unknown> };
    };
    expect(parsed.error.code).toBe('SOURCE_LIMIT_CONFIGURATION_INVALID');
    expect(parsed.error.details).toMatchObject({
      field: 'jsonlRecordBytes',
      value: '1.5MiB',
      receivedType: 'string',
    });
    expect(typeof parsed.error.message).toBe('string');
  });

  it('an unknown option is a usage error (exit 2) with JSON on stderr', () => {
    const { code, stdout, stderr } = runCli(['run', '--json', '--no-such-flag']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(JSON.parse(stderr).error.code).toBe('USAGE_ERROR');
  });

  it("a --cursor-user-dir that does not exist (the run's only source) is a SOURCE_ROOT_MISSING warning, not a silent empty run", () => {
    const root = tempDir();
    const missing = join(root, 'typo', 'User');
    const { code, stdout } = runCli([
      'run',
      '--json',
      '--cursor-user-dir',
      missing,
      '--target',
      `duckdb:${join(root, 'w.duckdb')}`,
    ]);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { run: { counts: { sourcesSeen: number } }; diagnostics: unknown[] };
    expect(out.run.counts.sourcesSeen).toBe(0);
    expect(out.diagnostics).toEqual([
      expect.objectContaining({
        code: 'SOURCE_ROOT_MISSING',
        severity: 'warning',
        details: { root: 'cursorUserDir' },
      }),
    ]);
    expect(stdout).not.toContain(root);
  });

  it('a human run prints each diagnostic code once with its remedy, and names no custom root path', () => {
    const root = tempDir();
    const { code, stdout } = runCli([
      'run',
      '--cursor-user-dir',
      join(root, 'typo', 'User'),
      '--target',
      `duckdb:${join(root, 'w.duckdb')}`,
    ]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^run \S+ committed \(full\)/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^warning SOURCE_ROOT_MISSING ×1: /),
      '  → Check --cursor-user-dir / --cursor-store-root.',
    ]);
    expect(stdout).not.toContain(root);
  });

  it('--help lists doctor', () => {
    expect(runCli(['--help']).stdout).toMatch(/\n {2}doctor /);
  });

  it('doctor --json writes one schema-valid report on stdout and nothing on stderr', () => {
    const { userDir } = buildSampleCorpus(join(tempDir(), 'sample'));
    const { code, stdout, stderr } = runCli(['doctor', '--json', '--cursor-user-dir', userDir]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const report = DOCTOR_REPORT.parse(JSON.parse(stdout));
    expect(report.roots.map((r) => [r.path, r.found, r.sessions])).toEqual([[userDir, true, 3]]);
  });

  it('query on a missing warehouse exits 3 (not found)', () => {
    const { code, stdout, stderr } = runCli([
      'query',
      '--json',
      '--target',
      `duckdb:${join(tempDir(), 'none.duckdb')}`,
      'select 1',
    ]);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(JSON.parse(stderr).error.code).toBe('WAREHOUSE_NOT_FOUND');
  });
});

describe('end-to-end skeleton on the sample data', () => {
  let userDir: string;
  let target: string;
  beforeAll(() => {
    const root = tempDir();
    userDir = buildSampleCorpus(join(root, 'cursor')).userDir;
    target = `duckdb:${join(root, 'warehouse.duckdb')}`;
  });

  it('loads, then a second identical run writes nothing and leaves identical table contents', () => {
    const first = runCli(['run', '--json', '--cursor-user-dir', userDir, '--target', target]);
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout) as {
      run: { counts: Record<string, number> };
      diagnostics: unknown[];
    };
    expect(summary.run.counts.sessionsInserted).toBe(3);
    expect(Array.isArray(summary.diagnostics)).toBe(true);
    const checksum = (): string => {
      const sql =
        "select (select md5(string_agg(m::varchar, '|' order by session_id, ordinal)) from messages m) || " +
        "(select md5(string_agg(s::varchar, '|' order by session_id)) from sessions s) || " +
        "(select md5(string_agg(t::varchar, '|' order by session_id, message_id, tool_ordinal)) from tool_calls t) as c";
      return JSON.parse(runCli(['query', '--json', '--target', target, sql]).stdout).rows[0].c;
    };
    const before = checksum();
    const second = JSON.parse(
      runCli(['run', '--json', '--cursor-user-dir', userDir, '--target', target]).stdout,
    );
    expect(second.run.counts).toMatchObject({
      sessionsInserted: 0,
      sessionsReplaced: 0,
      sessionsUnchanged: 3,
    });
    expect(checksum()).toBe(before);
  });

  it('etl query returns a positive message count and etl verify passes', () => {
    const query = runCli(['query', '--json', '--target', target, 'select count(*) as n from messages']);
    expect(query.code).toBe(0);
    const n = JSON.parse(query.stdout).rows[0].n;
    expect(typeof n).toBe('number');
    expect(n).toBeGreaterThan(0);
    const verify = runCli(['verify', '--json', '--target', target]);
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout).verify.sessionsChecked).toBe(3);
  });

  it('etl status lists the committed runs', () => {
    const status = runCli(['status', '--json', '--target', target]);
    expect(status.code).toBe(0);
    const runs = JSON.parse(status.stdout).runs as { status: string }[];
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.every((r) => r.status === 'committed')).toBe(true);
  });

  it('etl status --json reports counts as JSON numbers, not strings', () => {
    const status = JSON.parse(runCli(['status', '--json', '--target', target]).stdout);
    expect(status.counts.sessions).toBe(3);
    expect(typeof status.counts.messages).toBe('number');
    expect(typeof status.ledger.sources).toBe('number');
    expect(typeof status.runs[0].sessions_unchanged).toBe('number');
  });
});
