import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { buildSampleCorpus } from '../../fixtures/sample/sample-corpus.js';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { runJson } from '../helpers/warehouse-cli.js';

describe('etl verify', () => {
  it('a corrupted message row makes etl verify exit 5 with a digest problem for that session', async () => {
    const root = tempDir();
    const userDir = buildSampleCorpus(join(root, 'cursor')).userDir;
    const path = join(root, 'w.duckdb');
    runJson(['--cursor-user-dir', userDir, '--target', `duckdb:${path}`]);
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    const row = (
      await connection.runAndReadAll('SELECT session_id FROM messages LIMIT 1')
    ).getRowObjects()[0]!;
    await connection.run(
      "UPDATE messages SET content = content || ' tampered' WHERE session_id = $1 AND ordinal = 0",
      [String(row.session_id)],
    );
    connection.closeSync();
    instance.closeSync();
    const verify = runCli(['verify', '--json', '--target', `duckdb:${path}`]);
    expect(verify.code).toBe(5);
    const error = JSON.parse(verify.stderr).error;
    expect(error.code).toBe('WAREHOUSE_INTEGRITY_FAILED');
    expect(error.details.problems).toContainEqual({
      check: 'digest',
      sessionId: String(row.session_id),
      table: 'sessions',
    });
  }, 120_000);
});
