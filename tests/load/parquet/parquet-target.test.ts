import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_TABLES } from '../../../schemas/ledger-tables.js';
import { ROW_TABLES } from '../../../schemas/tables.js';
import { bucketOf } from '../../../src/load/parquet/dataset-layout.js';
import { currentState, stateDataFiles } from '../../helpers/dataset-files.js';
import { runCli } from '../../helpers/run-cli.js';
import { editBubbleText, removeSession } from '../../helpers/sample-edits.js';
import { loadSample, type SampleWarehouse } from '../../helpers/sample-warehouse.js';
import { fingerprintDuckDb } from '../../helpers/table-checksum.js';

const A003 = '3f2a9c1e-0000-4000-8000-00000000a003';
/** Ledger tables are small and republished as one file with every state; data files are not. */
const LEDGER_FILES = LEDGER_TABLES.map((t) => t.name);

function run(sample: SampleWarehouse): Record<string, number> {
  const result = runCli(['run', '--json', '--cursor-user-dir', sample.userDir, '--target', sample.target]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).run.counts;
}

function queryJson(target: string, sql: string): Record<string, unknown>[] {
  const result = runCli(['query', '--json', '--target', target, sql]);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout).rows;
}

describe('etl run --target parquet:<dir>', () => {
  let sample: SampleWarehouse;
  let dir: string;
  beforeAll(() => {
    sample = loadSample('parquet');
    dir = sample.target.slice('parquet:'.length);
  });

  it('holds the same tables and rows as the DuckDB warehouse loaded from the same sources', async () => {
    const duck = join(sample.root, 'same-sources.duckdb');
    expect(runCli(['run', '--cursor-user-dir', sample.userDir, '--target', `duckdb:${duck}`]).code).toBe(0);
    const state = join(dir, 'states', currentState(dir));
    for (const table of ROW_TABLES.filter((t) => t.name !== 'diagnostics')) {
      const parquet = `read_parquet('${state}/${table.name}/*/*.parquet', hive_partitioning = true)`;
      expect(await fingerprintDuckDb(':memory:', parquet, table.columns)).toEqual(
        await fingerprintDuckDb(duck, table.name, table.columns),
      );
    }
  });

  it('partitions content tables by session bucket, owner-only, and etl status/verify read the current state', () => {
    const files = stateDataFiles(dir);
    expect(files.has(`sessions/bucket=${bucketOf(A003)}`)).toBe(true);
    for (const file of files.values()) expect(file.mode).toBe(0o600);
    const status = runCli(['status', '--json', '--target', sample.target]);
    const counts = JSON.parse(status.stdout).counts as Record<string, unknown>;
    expect([counts.sessions, counts.messages, counts.tool_calls].map(Number)).toEqual([3, 12, 4]);
    expect(runCli(['verify', '--json', '--target', sample.target]).code).toBe(0);
  });

  it('identical input rewrites no data file: every partition of the new state is a hard link', () => {
    const before = stateDataFiles(dir);
    const stateBefore = currentState(dir);
    expect(run(sample)).toMatchObject({ sessionsUnchanged: 3, sessionsInserted: 0, sessionsReplaced: 0 });
    expect(currentState(dir)).not.toBe(stateBefore);
    const after = stateDataFiles(dir);
    for (const [partition, file] of before) {
      if (LEDGER_FILES.includes(partition)) continue;
      expect(after.get(partition)?.inode, partition).toBe(file.inode);
    }
  });

  it('a one-session change rewrites only the partitions that hold it', () => {
    const before = stateDataFiles(dir);
    editBubbleText(sample.userDir, A003, 'b-a003-03', 'Renamed; imports fixed in 4 files.');
    expect(run(sample)).toMatchObject({ sessionsReplaced: 1, sessionsUnchanged: 2 });
    const after = stateDataFiles(dir);
    const rewritten = [...after]
      .filter(([p, f]) => before.get(p)?.inode !== f.inode && !LEDGER_FILES.includes(p))
      .map(([p]) => p);
    const bucket = bucketOf(A003);
    expect(rewritten.sort()).toEqual(
      [
        `file_edits/bucket=${bucket}`,
        `messages/bucket=${bucket}`,
        `row_provenance/bucket=${bucket}`,
        `sessions/bucket=${bucket}`,
        `source_instances/bucket=${bucket}`,
        `tool_calls/bucket=${bucket}`,
        `usage/bucket=${bucket}`,
      ].sort(),
    );
    expect(queryJson(sample.target, `SELECT content FROM messages WHERE message_id = 'b-a003-03'`)).toEqual([
      { content: 'Renamed; imports fixed in 4 files.' },
    ]);
  });

  it('sessions absent from the sources are kept', () => {
    removeSession(sample.userDir, A003);
    run(sample);
    expect(queryJson(sample.target, 'SELECT count(*)::INT AS n FROM sessions')).toEqual([{ n: 3 }]);
    expect(runCli(['verify', '--target', sample.target]).code).toBe(0);
  });

  it('keeps only the retained states and leaves no staging residue or lock behind', () => {
    expect(readdirSync(join(dir, 'states')).length).toBeLessThanOrEqual(5);
    expect(readdirSync(join(dir, 'states'))).toContain(currentState(dir));
    expect(readdirSync(join(dir, 'staging'))).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['CURRENT', 'staging', 'states']);
  });
});
