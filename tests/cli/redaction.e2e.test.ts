import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { writeCarrierCorpus } from '../../fixtures/redaction/carrier-corpus.js';
import { leaked } from '../helpers/leaked-secrets.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

function setup() {
  const root = tempDir('etl-redaction-');
  const corpus = writeCarrierCorpus(join(root, 'sources'));
  const env = { XDG_CONFIG_HOME: join(root, 'config') };
  const sources = [
    '--cursor-user-dir',
    corpus.userDir,
    '--cursor-store-root',
    corpus.storeRoot,
    '--input',
    corpus.inputs,
  ];
  const run = (target: string, ...flags: string[]) =>
    runCli(['run', ...sources, '--target', target, '--json', ...flags], env);
  return { root, corpus, env, run };
}

function dump(target: string, env: Record<string, string>): string {
  const tables = ['sessions', 'messages', 'tool_calls', 'source_instances'];
  return tables
    .map((table) => runCli(['query', '--json', '--target', target, `select * from ${table}`], env).stdout)
    .join('\n');
}

describe('redaction a user can trust', { timeout: 300_000 }, () => {
  it('every secret family in every carrier (capture message, Composer bubble, Store transcript, Markdown, Cloud, tool params, results, errors, titles, extensions) reaches a plain warehouse and none survives --redact', async () => {
    const { root, corpus, env, run } = setup();
    const plain = `duckdb:${join(root, 'plain', 'w.duckdb')}`;
    expect(run(plain).code).toBe(0);
    const plainDump = dump(plain, env);
    const missing = corpus.placed.filter((p) => !plainDump.includes(p.secret));
    expect(missing.map((p) => `${p.carrier}/${p.family}`)).toEqual([]);

    const dir = join(root, 'redacted');
    const redacted = `duckdb:${join(dir, 'w.duckdb')}`;
    const out = run(redacted, '--redact');
    expect(out.code).toBe(0);
    const survivors = await leaked(
      dir,
      corpus.placed.map((p) => p.secret),
    );
    const where = corpus.placed
      .filter((p) => survivors.includes(p.secret))
      .map((p) => `${p.carrier}/${p.family}`);
    expect(where).toEqual([]);
    const redactedDump = dump(redacted, env);
    expect(corpus.placed.filter((p) => redactedDump.includes(p.secret))).toEqual([]);
    // Counts per rule, never a value.
    const report = JSON.parse(out.stdout).diagnostics.find(
      (d: { code: string }) => d.code === 'REDACTION_APPLIED',
    );
    expect(Object.keys(report.details.byRule).length).toBeGreaterThan(5);
    expect(corpus.placed.filter((p) => out.stdout.includes(p.secret))).toEqual([]);
    expect(runCli(['verify', '--target', redacted], env).code).toBe(0);
    expect(runCli(['verify', '--secrets', '--target', redacted], env).code).toBe(0);
  });

  for (const kind of ['duckdb', 'parquet'] as const) {
    it(`${kind}: turning redaction on for a plaintext warehouse leaves no plaintext byte in any file; the stored policy then applies`, async () => {
      const { root, corpus, env, run } = setup();
      const dir = join(root, 'target');
      const target = kind === 'duckdb' ? `duckdb:${join(dir, 'w.duckdb')}` : `parquet:${dir}`;
      const secrets = corpus.placed.map((p) => p.secret);
      expect(run(target).code).toBe(0);
      expect(run(target).code).toBe(0);
      // The plaintext is on disk before: the scan below can fail.
      expect((await leaked(dir, secrets)).length).toBeGreaterThan(secrets.length / 2);
      const on = run(target, '--redact');
      expect(on.code).toBe(0);
      expect(JSON.parse(on.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain(
        'REDACTION_ARCHIVE_REWRITTEN',
      );
      expect(await leaked(dir, secrets)).toEqual([]);
      // No flag: the warehouse's policy applies, nothing plaintext comes back.
      expect(run(target).code).toBe(0);
      expect(run(target, '--since-last').code).toBe(0);
      expect(await leaked(dir, secrets)).toEqual([]);
      // Off only with explicit consent.
      const refused = run(target, '--no-redact');
      expect(refused.code).toBe(2);
      expect(JSON.parse(refused.stderr).error.code).toBe('REDACTION_POLICY_DOWNGRADE');
      expect(await leaked(dir, secrets)).toEqual([]);
      expect(runCli(['verify', '--secrets', '--target', target], env).code).toBe(0);
      expect(run(target, '--no-redact', '--allow-unredacted').code).toBe(0);
      const check = runCli(['verify', '--secrets', '--json', '--target', target], env);
      expect(check.code).toBe(0);
      expect(JSON.parse(check.stdout).verifySecrets.suspectCount).toBeGreaterThan(0);
    });

    it(`${kind}: etl redact re-redacts a warehouse whose sources are gone, from its rows; no plaintext byte stays`, async () => {
      const { root, corpus, env, run } = setup();
      const dir = join(root, 'target');
      const target = kind === 'duckdb' ? `duckdb:${join(dir, 'w.duckdb')}` : `parquet:${dir}`;
      expect(run(target).code).toBe(0);
      const sessions = Number(
        JSON.parse(
          runCli(['query', '--json', '--target', target, 'select count(*) as n from sessions'], env).stdout,
        ).rows[0].n,
      );
      rmSync(join(root, 'sources'), { recursive: true, force: true });
      const secrets = corpus.placed.map((p) => p.secret);
      expect((await leaked(dir, secrets)).length).toBeGreaterThan(secrets.length / 2);
      const out = runCli(['redact', '--json', '--target', target], env);
      expect(out.code).toBe(0);
      expect(JSON.parse(out.stdout).redact.rewritten).toBe(sessions);
      expect(await leaked(dir, secrets)).toEqual([]);
      expect(runCli(['verify', '--target', target], env).code).toBe(0);
      expect(runCli(['verify', '--secrets', '--target', target], env).code).toBe(0);
      expect(JSON.parse(runCli(['redact', '--json', '--target', target], env).stdout).redact.rewritten).toBe(
        0,
      );
    });
  }

  it('sealed IDs: no identity v1 content hash of a plain warehouse appears in the redacted one; plain runs keep identity v1', async () => {
    const { root, env, run } = setup();
    const plain = `duckdb:${join(root, 'plain', 'w.duckdb')}`;
    const again = `duckdb:${join(root, 'again', 'w.duckdb')}`;
    expect(run(plain).code).toBe(0);
    expect(run(again).code).toBe(0);
    const ids = (target: string) =>
      runCli(
        [
          'query',
          '--json',
          '--target',
          target,
          'select m.message_id, m.archive_key, t.tool_id, m.session_id from messages m left join tool_calls t using (session_id, message_id) order by all',
        ],
        env,
      ).stdout;
    expect(ids(again)).toBe(ids(plain));
    const hashes = [...new Set(ids(plain).match(/(?<=:v1:(?:db:|transcript:)?|:)[0-9a-f]{64}/g) ?? [])];
    expect(ids(plain)).toMatch(/capture:v1:[0-9a-f]{64}:1/);
    expect(ids(plain)).toMatch(/markdown:v1:[0-9a-f]{64}/);
    expect(hashes.length).toBeGreaterThan(10);
    const dir = join(root, 'redacted');
    expect(run(`duckdb:${join(dir, 'w.duckdb')}`, '--redact').code).toBe(0);
    expect(await leaked(dir, hashes)).toEqual([]);
    const sealed = ids(`duckdb:${join(dir, 'w.duckdb')}`);
    expect(sealed).toMatch(/capture:v1k:[0-9a-f]{64}:1/);
    expect(sealed).toMatch(/markdown:v1k:[0-9a-f]{64}/);
    // Another key cannot continue the warehouse's sealed identity.
    const other = run(`duckdb:${join(dir, 'w.duckdb')}`);
    expect(other.code).toBe(0);
    const mismatch = runCli(
      [
        'run',
        '--input',
        join(root, 'sources', 'inputs'),
        '--target',
        `duckdb:${join(dir, 'w.duckdb')}`,
        '--json',
      ],
      { XDG_CONFIG_HOME: join(root, 'other-config') },
    );
    expect(mismatch.code).toBe(2);
    expect(JSON.parse(mismatch.stderr).error.code).toBe('REDACTION_KEY_MISMATCH');
    expect(readFileSync(join(root, 'config', 'cursor-etl', 'redaction.key'), 'utf8')).toMatch(
      /^[0-9a-f]{64}\n$/,
    );
    expect(statSync(join(root, 'config', 'cursor-etl', 'redaction.key')).mode & 0o777).toBe(0o600);
  });

  it('verify --secrets reports a secret in a redacted warehouse by table, column and session, never its value, and exits 5', async () => {
    const { root, env, run } = setup();
    const path = join(root, 'w', 'w.duckdb');
    expect(run(`duckdb:${path}`, '--redact').code).toBe(0);
    const planted = `ghp_${'Zq9'.repeat(12)}`;
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run(
      `UPDATE messages SET content = 'leaked ${planted}' WHERE ordinal = 0 AND session_id = 'sess-capture-message'`,
    );
    connection.closeSync();
    instance.closeSync();
    const out = runCli(['verify', '--secrets', '--json', '--target', `duckdb:${path}`], env);
    expect(out.code).toBe(5);
    expect(out.stdout).toBe('');
    const error = JSON.parse(out.stderr).error;
    expect(error.code).toBe('SECRETS_SUSPECTED');
    expect(error.details.suspects).toEqual([
      { table: 'messages', column: 'content', sessionId: 'sess-capture-message', byRule: { github: 1 } },
    ]);
    expect(out.stderr).not.toContain(planted);
  });

  it('a newer ruleset in the warehouse fails closed (exit 5); home-directory user names are replaced only when asked', async () => {
    const { root, env, run } = setup();
    const home = tempDir('etl-home-');
    const { writeCapture } = await import('../../fixtures/capture/write-capture.js');
    const { redactionCliCapture } = await import('../../fixtures/capture/redaction-captures.js');
    writeCapture(
      home,
      'h.ndjson',
      redactionCliCapture('sess-home').replace('/synthetic/ws', '/home/alice-example/project'),
    );
    const runHome = (target: string, ...flags: string[]) =>
      runCli(['run', '--input', home, '--target', target, '--json', ...flags], env);
    const plainDir = join(root, 'default');
    expect(runHome(`duckdb:${join(plainDir, 'w.duckdb')}`, '--redact').code).toBe(0);
    expect(await leaked(plainDir, ['alice-example'])).toEqual(['alice-example']);
    const homeDir = join(root, 'home');
    expect(runHome(`duckdb:${join(homeDir, 'w.duckdb')}`, '--redact-home-paths').code).toBe(0);
    expect(await leaked(homeDir, ['alice-example'])).toEqual([]);
    // Home paths, once on, are part of the stored policy too.
    expect(runHome(`duckdb:${join(homeDir, 'w.duckdb')}`, '--no-redact-home-paths').code).toBe(2);

    const path = join(root, 'w', 'w.duckdb');
    expect(run(`duckdb:${path}`, '--redact').code).toBe(0);
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run(
      `UPDATE etl_meta SET value = replace(value, '"ruleset":1', '"ruleset":99') WHERE key = 'redaction_policy'`,
    );
    connection.closeSync();
    instance.closeSync();
    const newer = run(`duckdb:${path}`);
    expect(newer.code).toBe(5);
    expect(JSON.parse(newer.stderr).error.code).toBe('REDACTION_RULESET_NEWER');
  });
});
