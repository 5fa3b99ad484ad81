import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBenchCorpus } from '../../fixtures/bench/bench-corpus.js';
import { tempDir } from '../helpers/run-cli.js';

const FLOOR = resolve('dist/bench/raw-floor.js');
const work = tempDir('etl-bench-floor-');
afterAll(() => rmSync(work, { recursive: true, force: true }));

function rowCount(path: string, table: string): number {
  const db = new Database(path, { readonly: true });
  const row = db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number };
  db.close();
  return row.n;
}

describe('raw floor (bench/raw-floor.ts)', () => {
  const corpus = buildBenchCorpus(join(work, 'corpus'), {
    sessions: 8,
    messages: 10,
    seed: 3,
    storeShare: 0.5,
  });
  const workspaces = join(corpus.userDir, 'workspaceStorage');
  const composerRows =
    rowCount(join(corpus.userDir, 'globalStorage', 'state.vscdb'), 'cursorDiskKV') +
    readdirSync(workspaces).reduce(
      (sum, dir) => sum + rowCount(join(workspaces, dir, 'state.vscdb'), 'ItemTable'),
      0,
    );
  const { store } = corpus.stats;
  const result = spawnSync(
    process.execPath,
    [
      FLOOR,
      '--user-dir',
      corpus.userDir,
      '--store-root',
      corpus.storeRoot,
      '--out',
      join(work, 'floor.duckdb'),
    ],
    { encoding: 'utf8', timeout: 120_000 },
  );
  const summary = JSON.parse(result.stdout) as {
    run: { payloadBytesRead: number; payloadReads: number; jsonObjects: number };
  };

  it('reads every payload of both stacks once: Composer rows, store.db meta rows and blobs, meta.json, transcript records', () => {
    expect(result.status).toBe(0);
    const expected = composerRows + store.blobs + 2 * store.dbs + store.transcriptLines;
    expect(summary.run.payloadReads).toBe(expected);
    // Transcript records are counted without their line feeds.
    expect(summary.run.payloadBytesRead).toBeGreaterThanOrEqual(
      corpus.stats.payloadBytes - store.transcriptLines,
    );
  });

  it('parses every JSON payload, including protobuf-wrapped leaves; only tree nodes stay unparsed', () => {
    expect(summary.run.jsonObjects).toBe(summary.run.payloadReads - store.dbs);
  });
});
