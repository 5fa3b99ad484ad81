import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { buildSampleCorpus } from '../../../fixtures/sample/sample-corpus.js';
import { withReadOnlyWarehouse } from '../../../src/load/duckdb/read-only-query.js';
import { verifyWarehouse } from '../../../src/load/duckdb/verify-warehouse.js';
import { tempDir } from '../../helpers/run-cli.js';
import { runJson } from '../../helpers/warehouse-cli.js';

async function withWriter<T>(path: string, work: (run: (sql: string) => Promise<unknown[]>) => Promise<T>) {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    return await work(async (sql) => (await connection.runAndReadAll(sql)).getRowObjects());
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('verifyWarehouse', () => {
  it('checks every session once whatever the range size, and finds a tampered session in a middle range', async () => {
    const root = tempDir();
    const path = join(root, 'w.duckdb');
    runJson([
      '--cursor-user-dir',
      buildSampleCorpus(join(root, 'cursor')).userDir,
      '--target',
      `duckdb:${path}`,
    ]);
    for (const rangeRows of [1, 5_000]) {
      const clean = await withReadOnlyWarehouse(path, (c) => verifyWarehouse(c, rangeRows));
      expect(clean).toEqual({ sessionsChecked: 3, problems: [] });
    }
    const middle = await withWriter(path, async (run) => {
      const ids = (await run('SELECT session_id FROM sessions ORDER BY session_id')) as {
        session_id: string;
      }[];
      const id = ids[1]!.session_id;
      await run(`DELETE FROM messages WHERE session_id = '${id}' AND ordinal = 0`);
      return id;
    });
    // One session per range: the tampered one sits between two clean ranges.
    const report = await withReadOnlyWarehouse(path, (c) => verifyWarehouse(c, 1));
    expect(report.sessionsChecked).toBe(3);
    expect(report.problems).toEqual([
      { check: 'digest', sessionId: middle, table: 'sessions' },
      { check: 'message-count', sessionId: middle, table: 'messages' },
    ]);
  }, 120_000);
});
