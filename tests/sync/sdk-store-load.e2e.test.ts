/**
 * The SDK agent store end to end (issue #25 §3): the cursor-formats §9.3 fixture corpus loaded by the
 * built CLI into DuckDB and Parquet, compared with the same Store root without its SDK trees.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  PLAIN_TRANSCRIPT,
  SDK_AGENT_STORE_CANARY,
  SDK_AGENTS,
  writeSdkStoreCorpus,
} from '../../fixtures/sdk/sdk-store-corpus.js';
import { leaked } from '../helpers/leaked-secrets.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

type Row = Record<string, unknown>;
type RunOutput = { run: Row & { counts: Row }; diagnostics: Row[] };

const printed: string[] = [];

function load(storeRoot: string, target: string, ...extra: string[]): RunOutput {
  const result = runCli(['run', '--json', '--cursor-store-root', storeRoot, '--target', target, ...extra]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  printed.push(result.stdout);
  return JSON.parse(result.stdout) as RunOutput;
}

function rows(target: string, sql: string): Row[] {
  const result = runCli(['query', '--json', '--target', target, sql]);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).rows;
}

const ext = (row: Row | undefined) => JSON.parse(String(row?.extensions ?? 'null'));
const num = (value: unknown) => (value === null ? null : Number(value));

describe('SDK agent store loaded end to end', { timeout: 300_000 }, () => {
  const targets: Record<'duckdb' | 'parquet', string> = { duckdb: '', parquet: '' };
  let root: string;
  let storeRoot: string;
  const first: RunOutput[] = [];

  beforeAll(() => {
    root = tempDir('etl-sdk-');
    storeRoot = writeSdkStoreCorpus(join(root, 'with')).storeRoot;
    targets.duckdb = `duckdb:${join(root, 'duckdb', 'w.duckdb')}`;
    targets.parquet = `parquet:${join(root, 'parquet')}`;
    for (const target of Object.values(targets)) first.push(load(storeRoot, target));
  });

  for (const kind of ['duckdb', 'parquet'] as const) {
    it(`${kind}: each agent is a session; its transcript turns carry run model, usage and tool results`, () => {
      const target = targets[kind];
      const sessions = rows(
        target,
        'select session_id, resolved_source, fidelity, title, total_input_tokens from sessions order by 1',
      );
      expect(sessions.map((s) => [s.session_id, s.resolved_source, s.fidelity, s.title])).toEqual([
        [PLAIN_TRANSCRIPT, 'store-transcript', 'complete', null],
        [SDK_AGENTS.withTranscript, 'store-transcript', 'complete', 'fix-tests'],
        [SDK_AGENTS.sdkOnly, 'sdk-agent-store', 'partial', 'background-job'],
        [SDK_AGENTS.hostile, 'sdk-agent-store', 'partial', null],
      ]);
      expect(num(sessions[1]!.total_input_tokens)).toBe(1200);
      const messages = rows(
        target,
        `select role, model, input_tokens from messages
          where session_id = '${SDK_AGENTS.withTranscript}' order by ordinal`,
      );
      expect(messages.map((m) => [m.role, m.model, num(m.input_tokens)])).toEqual([
        ['user', null, null],
        ['assistant', 'composer-2.5', null],
        ['assistant', 'composer-2.5', 900],
        ['user', null, null],
        ['assistant', 'gpt-5.2', 300],
      ]);
      const tools = rows(
        target,
        `select name, status, result, error, native_call_id, extensions from tool_calls
          where session_id = '${SDK_AGENTS.withTranscript}' order by message_id, tool_ordinal`,
      );
      expect(tools.map((t) => [t.name, t.status, t.error, t.native_call_id])).toEqual(
        expect.arrayContaining([
          ['Shell', 'completed', null, 'toolu_a'],
          ['Edit', 'error', 'patch failed', 'call_3'],
          ['shell', 'completed', null, 'call_4'],
        ]),
      );
      const shell = tools.find((t) => t.name === 'Shell')!;
      expect(JSON.parse(String(shell.result))).toEqual({ exitCode: 0, stdout: '12 passed', stderr: '' });
      expect(ext(shell).sdk.args).toEqual({ command: 'npm test' });
      const only = rows(
        target,
        `select message_id, identity_origin, origin from messages where session_id = '${SDK_AGENTS.sdkOnly}'`,
      );
      expect(only).toEqual([{ message_id: 'sdk:v1:run:run-b1', identity_origin: 'sdk-v1', origin: 'sdk' }]);
      const reps = rows(target, 'select distinct representation from source_instances order by 1');
      expect(reps.map((r) => r.representation)).toEqual(['sdk-agent-store', 'store-transcript']);
    });
  }

  it('wrongly typed cells are typed diagnostics of the run, never content', () => {
    const codes = first[0]!.diagnostics.map((d) => d.code);
    expect(codes).toContain('SDK_FIELD_INVALID');
    expect(codes).toContain('TIME_VALUE_UNKNOWN');
    const stored = rows(targets.duckdb, "select details from diagnostics where code = 'SDK_FIELD_INVALID'");
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain('rm -rf');
  });

  it('a per-agent store.db (schema unknown) is counted and reported, never read: its key and text reach nothing', async () => {
    for (const run of first) {
      const unread = run.diagnostics.filter((d) => d.code === 'SDK_AGENT_STORES_UNREAD');
      expect(unread.map((d) => [d.severity, d.details])).toEqual([['info', { count: 1 }]]);
    }
    expect(await leaked(join(root, 'duckdb'), [SDK_AGENT_STORE_CANARY, 'PER-AGENT-STORE-MARKER'])).toEqual(
      [],
    );
    expect(await leaked(join(root, 'parquet'), [SDK_AGENT_STORE_CANARY, 'PER-AGENT-STORE-MARKER'])).toEqual(
      [],
    );
    expect(printed.join('\n')).not.toContain(SDK_AGENT_STORE_CANARY);
  });

  it('identity v1 of every Store message and tool call is the same without the SDK store', () => {
    const bare = writeSdkStoreCorpus(join(root, 'without'), { withoutSdk: true }).storeRoot;
    const target = `duckdb:${join(root, 'bare', 'w.duckdb')}`;
    load(bare, target);
    const ids = (t: string) =>
      rows(
        t,
        `select m.session_id, m.message_id, c.tool_ordinal, c.tool_id from messages m
           left join tool_calls c using (session_id, message_id)
          where m.identity_origin = 'store-transcript-v1' order by 1, 2, 3`,
      );
    const without = ids(target);
    expect(without.length).toBe(8);
    // The SDK call no transcript line holds is appended after the transcript's calls.
    const withSdk = ids(targets.duckdb);
    const known = new Set(without.map((w) => w.tool_id));
    expect(withSdk.filter((r) => known.has(r.tool_id))).toEqual(without);
    expect(withSdk.length).toBe(without.length + 1);
  });

  it('--since-last with nothing changed reads no payload; a new run replaces only its agent', () => {
    for (const target of Object.values(targets)) {
      const again = load(storeRoot, target, '--since-last');
      expect(again.run.payloadBytesRead).toBe(0);
      expect(again.run.payloadReads).toBe(0);
    }
    const index = join(storeRoot, 'projects', 'other-project', 'sdk-agent-store', '7be210', 'index.db');
    const db = new Database(index);
    db.prepare(
      `INSERT INTO runs (run_id, agent_id, turn_number, status, model, result, created_at, updated_at)
       VALUES ('run-b2', ?, 1, 'FINISHED', 'composer-2.5', 'Again.', '2026-07-03T09:00:00Z', '2026-07-03T09:00:00Z')`,
    ).run(SDK_AGENTS.sdkOnly);
    db.close();
    const changed = load(storeRoot, targets.duckdb, '--since-last');
    expect(changed.run.counts).toMatchObject({ sessionsReplaced: 1, sessionsInserted: 0 });
    const texts = rows(
      targets.duckdb,
      `select content from messages where session_id = '${SDK_AGENTS.sdkOnly}' order by ordinal`,
    );
    expect(texts.map((t) => t.content)).toEqual(['Done.', 'Again.']);
  });
});
