/**
 * Token and model fields of 2026 Composer data (cursor-formats §2, §9.2) end to end: the meter
 * variants and per-bubble counts loaded by the built CLI into DuckDB and Parquet.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_SESSIONS, writeTokenModelCorpus } from '../../fixtures/composer/token-model-corpus.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

type Row = Record<string, unknown>;

function load(userDir: string, target: string, ...extra: string[]): Row {
  const result = runCli(['run', '--json', '--cursor-user-dir', userDir, '--target', target, ...extra]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).run;
}

function rows(target: string, sql: string): Row[] {
  const result = runCli(['query', '--json', '--target', target, sql]);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).rows;
}

const num = (value: unknown) => (value === null ? null : Number(value));

describe('Composer token and model variants loaded end to end', { timeout: 300_000 }, () => {
  const targets: Record<'duckdb' | 'parquet', string> = { duckdb: '', parquet: '' };
  let userDir: string;

  beforeAll(() => {
    const root = tempDir('etl-tokens-');
    userDir = writeTokenModelCorpus(join(root, 'src')).userDir;
    targets.duckdb = `duckdb:${join(root, 'duckdb', 'w.duckdb')}`;
    targets.parquet = `parquet:${join(root, 'parquet')}`;
    for (const target of Object.values(targets)) load(userDir, target);
  });

  for (const kind of ['duckdb', 'parquet'] as const) {
    it(`${kind}: the context meter where stored; zero counts are unknown, a legacy non-zero count is kept`, () => {
      const sessions = rows(
        targets[kind],
        `select session_id, context_tokens_used, context_token_limit, total_input_tokens, total_output_tokens
           from sessions order by 1`,
      );
      expect(
        sessions.map((s) => [
          s.session_id,
          num(s.context_tokens_used),
          num(s.context_token_limit),
          num(s.total_input_tokens),
          num(s.total_output_tokens),
        ]),
      ).toEqual([
        [TOKEN_SESSIONS.agentic, 18250, 200000, 1200, 340],
        // Auto: an empty breakdown, the meter still set.
        [TOKEN_SESSIONS.auto, 5000, 200000, null, null],
        // Draft: no meter keys, a zero breakdown total: nothing is invented.
        [TOKEN_SESSIONS.draft, null, null, null, null],
      ]);
    });

    it(`${kind}: a model only where a bubble names one; Auto's "default" is never a model`, () => {
      const messages = rows(
        targets[kind],
        `select message_id, model, input_tokens, output_tokens, thinking, timestamp_source from messages
          order by session_id, ordinal`,
      );
      expect(
        messages.map((m) => [
          m.message_id,
          m.model,
          num(m.input_tokens),
          num(m.output_tokens),
          m.thinking,
          m.timestamp_source,
        ]),
      ).toEqual([
        ['t-1-user', null, null, null, null, 'composer-created-at'],
        ['t-1-think', 'claude-4.6-sonnet', null, null, 'Find the suite first.', 'composer-created-at'],
        // No createdAt: placed after the previous message, never given a wall-clock time.
        ['t-1-final', null, 1200, 340, null, 'inferred-previous'],
        ['t-2-user', null, null, null, null, 'composer-created-at'],
        ['t-2-text', null, null, null, null, 'composer-created-at'],
        ['t-3-user', null, null, null, null, 'session-fallback'],
      ]);
    });
  }

  it('--since-last with nothing changed reads no payload on either target', () => {
    for (const target of Object.values(targets)) {
      const again = load(userDir, target, '--since-last');
      expect(again.payloadBytesRead).toBe(0);
      expect(again.payloadReads).toBe(0);
    }
  });
});
