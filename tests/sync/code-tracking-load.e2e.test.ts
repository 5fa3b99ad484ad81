/**
 * AI code tracking end to end (issue #25 §3): the sample Composer corpus with an
 * `ai-code-tracking.db` beside its Store root, loaded by the built CLI into DuckDB and Parquet.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeAiCodeTracking } from '../../fixtures/code-tracking/ai-code-tracking-db.js';
import { buildSampleCorpus, SAMPLE_COMPOSERS } from '../../fixtures/sample/sample-corpus.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

type Row = Record<string, unknown>;
const TRACKED = SAMPLE_COMPOSERS[0]!.id;
const ORPHAN = 'dead0000-0000-4000-8000-00000000dead';

function load(userDir: string, storeRoot: string, target: string, ...extra: string[]) {
  const args = ['run', '--json', '--cursor-user-dir', userDir, '--cursor-store-root', storeRoot];
  const result = runCli([...args, '--target', target, ...extra]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { run: Row & { counts: Row } };
}

function rows(target: string, sql: string): Row[] {
  const result = runCli(['query', '--json', '--target', target, sql]);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).rows;
}

describe('AI code tracking loaded end to end', { timeout: 300_000 }, () => {
  const targets: Record<'duckdb' | 'parquet', string> = { duckdb: '', parquet: '' };
  let userDir: string;
  let storeRoot: string;

  beforeAll(() => {
    const root = tempDir('etl-tracking-');
    ({ userDir, storeRoot } = buildSampleCorpus(join(root, 'cursor')));
    writeAiCodeTracking(storeRoot, { reduced: false, conversationId: TRACKED, orphanConversationId: ORPHAN });
    targets.duckdb = `duckdb:${join(root, 'duckdb', 'w.duckdb')}`;
    targets.parquet = `parquet:${join(root, 'parquet')}`;
    for (const target of Object.values(targets)) load(userDir, storeRoot, target);
  });

  for (const kind of ['duckdb', 'parquet'] as const) {
    it(`${kind}: the tracked session carries its attribution; a tracking-only conversation is no session`, () => {
      const target = targets[kind];
      const ids = rows(target, 'select session_id from sessions order by 1').map((r) => r.session_id);
      expect(ids).toEqual(SAMPLE_COMPOSERS.map((c) => c.id).sort());
      const [session] = rows(target, `select extensions from sessions where session_id = '${TRACKED}'`);
      const facts = JSON.parse(String(session!.extensions)).aiCodeTracking;
      expect(facts).toMatchObject({ aiLines: 5, humanLines: 1, summary: { title: 'Health endpoint work' } });
      const reps = rows(
        target,
        `select representation from source_instances where session_id = '${TRACKED}' order by 1`,
      );
      expect(reps.map((r) => r.representation)).toContain('ai-code-tracking');
    });
  }

  it('--since-last with nothing changed reads no payload', () => {
    for (const target of Object.values(targets)) {
      const again = load(userDir, storeRoot, target, '--since-last');
      expect(again.run.payloadBytesRead).toBe(0);
      expect(again.run.payloadReads).toBe(0);
      expect(again.run.counts).toMatchObject({ sessionsInserted: 0, sessionsReplaced: 0 });
    }
  });
});
