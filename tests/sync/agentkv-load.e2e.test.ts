/**
 * agentKv end to end (issue #25 §1, §5): the fixture corpus of cursor-formats §9.1/§9.7 loaded by
 * the built CLI into DuckDB and Parquet, compared with the same sessions without their blobs.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AGENTKV_SESSIONS,
  CANARY_AUTH_TOKEN,
  CANARY_BLOB_KEY,
  CANARY_SUMMARY_KEY,
  INJECTED_CONTEXT,
  PROTOBUF_ONLY,
  REQUESTS,
  SYSTEM_PROMPT,
  writeAgentKvCorpus,
} from '../../fixtures/agentkv/agentkv-corpus.js';
import { leaked } from '../helpers/leaked-secrets.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

type Row = Record<string, unknown>;
const SECRETS = [CANARY_BLOB_KEY, CANARY_SUMMARY_KEY, CANARY_AUTH_TOKEN];

function load(userDir: string, target: string, ...extra: string[]) {
  const result = runCli(['run', '--json', '--cursor-user-dir', userDir, '--target', target, ...extra]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return { ...result, out: JSON.parse(result.stdout) as { run: Row; diagnostics: Row[] } };
}

function rows(target: string, sql: string): Row[] {
  const result = runCli(['query', '--json', '--target', target, sql]);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).rows;
}

const ext = (row: Row | undefined) => JSON.parse(String(row?.extensions ?? 'null'));

describe('agentKv blobs loaded end to end', { timeout: 300_000 }, () => {
  const targets: Record<'duckdb' | 'parquet', string> = { duckdb: '', parquet: '' };
  let root: string;
  let userDir: string;
  const runs: { stdout: string; stderr: string; out: { run: Row; diagnostics: Row[] } }[] = [];

  beforeAll(() => {
    root = tempDir('etl-agentkv-');
    userDir = writeAgentKvCorpus(join(root, 'with')).userDir;
    targets.duckdb = `duckdb:${join(root, 'duckdb', 'w.duckdb')}`;
    targets.parquet = `parquet:${join(root, 'parquet')}`;
    for (const target of Object.values(targets)) runs.push(load(userDir, target));
  });

  for (const kind of ['duckdb', 'parquet'] as const) {
    it(`${kind}: a session whose text exists only in agentKv is loaded from it (composer-agentkv), without its system prompt or injected context`, () => {
      const target = targets[kind];
      const messages = rows(
        target,
        `select role, content, thinking, model, message_id, identity_origin, origin from messages
          where session_id = '${AGENTKV_SESSIONS.agentKvOnly}' order by ordinal`,
      );
      expect(messages.map((m) => [m.role, m.content, m.thinking, m.model])).toEqual([
        ['user', 'Summarize the repo', null, null],
        ['assistant', 'The repo has src, tests and docs.', 'List the top folders.', 'gpt-5.2'],
      ]);
      expect(messages.every((m) => String(m.message_id).startsWith('agentkv:v1:'))).toBe(true);
      expect(messages.every((m) => m.identity_origin === 'agentkv-v1' && m.origin === 'agentkv')).toBe(true);
      const task = rows(
        target,
        `select name, tool_id, status, result, extensions from tool_calls where name = 'Task'`,
      );
      expect(task.map((t) => [t.tool_id, t.status, t.result])).toEqual([
        ['toolu_task', 'completed', 'Surveyed 3 folders'],
      ]);
      expect(ext(task[0]).agentKv.output.success).toMatchObject({ agentId: 'sub-1', durationMs: 900 });
      const reps = rows(target, 'select distinct representation from source_instances order by 1').map(
        (r) => r.representation,
      );
      expect(reps).toEqual(['composer-agentkv', 'composer-global']);
      const text = JSON.stringify(rows(target, 'select content, thinking from messages'));
      expect(text).not.toContain('SYSTEM-PROMPT-MARKER');
      expect(text).not.toContain(INJECTED_CONTEXT);
      expect(SYSTEM_PROMPT).toContain('SYSTEM-PROMPT-MARKER');
    });

    it(`${kind}: the Composer session gains reasoning, full tool args/results with exit status and errors, and per-request models`, () => {
      const target = targets[kind];
      const [user] = rows(target, `select extensions from messages where message_id = 'b-1-user'`);
      const facts = ext(user).agentKv;
      expect(facts.requestId).toBe(REQUESTS.stateLinked);
      expect(facts.models).toEqual(['claude-4.6-sonnet']);
      expect(facts.reasoning).toEqual(['Need to find foo first.']);
      expect(facts.toolCalls[0]).toMatchObject({
        toolCallId: 'toolu_01',
        args: { command: 'grep -rn foo src' },
        isError: true,
        rawErrorMessages: ['grep: src: No such file'],
        output: { success: { exitCode: 1 } },
      });
      const [tool] = rows(target, `select extensions from tool_calls where message_id = 'b-1-tool'`);
      expect(ext(tool).agentKv).toMatchObject({ isError: true, result: 'exit 1: grep: src: No such file' });
      const models = rows(
        target,
        `select message_id, model from messages where session_id = '${AGENTKV_SESSIONS.stateLinked}' order by ordinal`,
      );
      expect(models.map((m) => m.model)).toEqual([null, 'claude-4.6-sonnet', 'claude-4.6-sonnet']);
      const [viaRequest] = rows(target, `select extensions from messages where message_id = 'b-2-user'`);
      expect(ext(viaRequest).agentKv.requestId).toBe(REQUESTS.requestLinked);
      const [session] = rows(
        target,
        `select extensions from sessions where session_id = '${AGENTKV_SESSIONS.stateLinked}'`,
      );
      expect(ext(session)).toMatchObject({
        hadBlobEncryptionKey: true,
        hadSpeculativeSummarizationEncryptionKey: true,
        agentKv: {
          kinds: { json: 5, protobuf: 3, text: 1, opaque: 1, empty: 1 },
          possiblyEncrypted: 1,
          systemPrompt: true,
          turns: 1,
          turnContentUnread: 2,
        },
      });
      expect(ext(session).agentKv.hashMismatchBlobIds).toHaveLength(1);
      expect(JSON.stringify(rows(target, 'select * from messages'))).not.toContain('TAMPERED-MARKER');
    });
  }

  it('a hash mismatch, opaque blobs and the orphan request are diagnostics; unlinked blobs are counted, never attached', () => {
    const codes = runs[0]!.out.diagnostics.map((d) => [
      d.code,
      d.sessionId ?? null,
      (d.details as Row).count,
    ]);
    expect(codes).toEqual(
      expect.arrayContaining([
        ['AGENTKV_BLOB_HASH_MISMATCH', AGENTKV_SESSIONS.stateLinked, 1],
        ['AGENTKV_BLOBS_POSSIBLY_ENCRYPTED', AGENTKV_SESSIONS.stateLinked, 1],
        ['AGENTKV_BLOBS_UNLINKED', null, 1],
        ['AGENTKV_PROTOBUF_UNREAD', AGENTKV_SESSIONS.stateLinked, 2],
        ['AGENTKV_PROTOBUF_UNREAD', null, 1],
      ]),
    );
    // A composer of protobuf turns only is counted (part `session`), never loaded from a guessed layout.
    expect(rows(targets.duckdb, `select 1 from sessions where session_id = '${PROTOBUF_ONLY}'`)).toEqual([]);
    const orphan = JSON.stringify(rows(targets.duckdb, 'select * from messages'));
    expect(orphan).not.toContain('Background run');
  });

  it('identity v1 of every Composer message and tool call, and the Composer order, are the same without agentKv', () => {
    const bare = writeAgentKvCorpus(join(root, 'without'), { withoutAgentKv: true }).userDir;
    const target = `duckdb:${join(root, 'bare', 'w.duckdb')}`;
    load(bare, target);
    const ids = (t: string) =>
      rows(
        t,
        `select m.session_id, m.ordinal, m.message_id, c.tool_ordinal, c.tool_id from messages m
           left join tool_calls c using (session_id, message_id)
          where m.session_id <> '${AGENTKV_SESSIONS.agentKvOnly}' order by 1, 2, 4`,
      );
    expect(ids(targets.duckdb)).toEqual(ids(target));
    expect(ids(target).length).toBe(6);
  });

  it('--since-last with nothing changed reads no payload, agentKv blobs included', () => {
    for (const target of Object.values(targets)) {
      const again = load(userDir, target, '--since-last');
      expect(again.out.run.payloadBytesRead).toBe(0);
      expect(again.out.run.payloadReads).toBe(0);
      runs.push(again);
    }
  });

  it('a canary blobEncryptionKey (and summary key, and an ItemTable auth token) never reaches the warehouse, stdout/stderr, diagnostics or exports', async () => {
    const exported = join(root, 'export');
    const exports = runCli(['export', '--format', 'jsonl', '--out', exported, '--target', targets.duckdb]);
    expect(exports.code).toBe(0);
    for (const dir of ['duckdb', 'parquet', 'export', 'bare'])
      expect(await leaked(join(root, dir), SECRETS)).toEqual([]);
    // The source DB holds every canary: the scan can fail.
    expect(await leaked(join(root, 'with'), SECRETS)).toEqual(SECRETS);
    const printed = runs.map((r) => r.stdout + r.stderr).join('\n') + exports.stdout + exports.stderr;
    for (const secret of SECRETS) expect(printed).not.toContain(secret);
    expect(JSON.stringify(rows(targets.duckdb, 'select * from diagnostics'))).not.toContain(CANARY_BLOB_KEY);
  });
});
