/**
 * Sealed Store blobs end to end (issue #25 §5, cursor-formats §9.7): a `blobEncryptionKey` in
 * store.db meta and AES-GCM sealed blobs, loaded by the built CLI into DuckDB and Parquet.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  SEALED_KEY_CANARY,
  SEALED_SESSIONS,
  SEALED_TEXT,
  writeEncryptedStore,
} from '../../fixtures/store/encrypted-store.js';
import { leaked } from '../helpers/leaked-secrets.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

type Row = Record<string, unknown>;
type RunOutput = { run: Row; diagnostics: Row[] };

const printed: string[] = [];

function load(storeRoot: string, target: string, ...extra: string[]): RunOutput {
  const result = runCli(['run', '--json', '--cursor-store-root', storeRoot, '--target', target, ...extra]);
  expect(result.code).toBe(0);
  printed.push(result.stdout, result.stderr);
  return JSON.parse(result.stdout) as RunOutput;
}

function rows(target: string, sql: string): Row[] {
  const result = runCli(['query', '--json', '--target', target, sql]);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).rows;
}

describe('sealed Store blobs loaded end to end', { timeout: 300_000 }, () => {
  const targets: Record<'duckdb' | 'parquet', string> = { duckdb: '', parquet: '' };
  let root: string;
  let storeRoot: string;
  const first: RunOutput[] = [];

  beforeAll(() => {
    root = tempDir('etl-sealed-');
    storeRoot = writeEncryptedStore(join(root, 'with')).storeRoot;
    targets.duckdb = `duckdb:${join(root, 'duckdb', 'w.duckdb')}`;
    targets.parquet = `parquet:${join(root, 'parquet')}`;
    for (const target of Object.values(targets)) first.push(load(storeRoot, target));
  });

  for (const kind of ['duckdb', 'parquet'] as const) {
    it(`${kind}: a sealed leaf is counted as possibly encrypted and skipped; a sealed root makes its session partial`, () => {
      const target = targets[kind];
      const messages = rows(
        target,
        `select role, content from messages where session_id = '${SEALED_SESSIONS.sealedLeaf}' order by ordinal`,
      );
      expect(messages.map((m) => [m.role, m.content])).toEqual([
        ['user', 'Show the config'],
        ['assistant', 'Here it is.'],
      ]);
      const sessions = rows(target, 'select session_id, fidelity from sessions order by 1');
      expect(sessions.map((s) => [s.session_id, s.fidelity])).toEqual([
        [SEALED_SESSIONS.sealedLeaf, 'partial'],
        [SEALED_SESSIONS.sealedRoot, 'partial'],
      ]);
    });
  }

  it('the counts are typed diagnostics per session; nothing is decrypted', () => {
    const partial = first[0]!.diagnostics.filter((d) => d.code === 'STORE_DB_PARTIAL');
    expect(partial.map((d) => [d.sessionId, d.details]).sort()).toEqual([
      [SEALED_SESSIONS.sealedLeaf, { problems: { 'possibly-encrypted-leaf': 1 } }],
      [SEALED_SESSIONS.sealedRoot, { problems: { 'possibly-encrypted-root': 1 } }],
    ]);
  });

  it('--since-last with nothing changed reads no payload on either target', () => {
    for (const target of Object.values(targets)) {
      const again = load(storeRoot, target, '--since-last');
      expect(again.run.payloadBytesRead).toBe(0);
    }
  });

  it('the key and the sealed plaintext never reach the warehouse, stdout/stderr, diagnostics or exports', async () => {
    const exported = join(root, 'export');
    const exports = runCli(['export', '--format', 'jsonl', '--out', exported, '--target', targets.duckdb]);
    expect(exports.code).toBe(0);
    for (const dir of ['duckdb', 'parquet', 'export'])
      expect(await leaked(join(root, dir), [SEALED_KEY_CANARY, SEALED_TEXT])).toEqual([]);
    const out = printed.join('\n') + exports.stdout + exports.stderr;
    expect(out).not.toContain(SEALED_KEY_CANARY);
    expect(out).not.toContain(SEALED_TEXT);
  });
});
