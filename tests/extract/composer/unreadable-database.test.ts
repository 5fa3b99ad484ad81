import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSampleCorpus } from '../../../fixtures/sample/sample-corpus.js';
import { queryRows } from '../../helpers/query-warehouse.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';

const GARBAGE = Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4096, 0x5a)]);

function run(userDir: string, root: string) {
  const result = runCli([
    'run',
    '--json',
    '--cursor-user-dir',
    userDir,
    '--target',
    `duckdb:${join(root, 'w.duckdb')}`,
  ]);
  return { ...result, summary: result.stdout ? JSON.parse(result.stdout) : null };
}

describe('unopenable Composer databases fail visibly', () => {
  it('a garbage global DB with workspace DBs left: workspace-fallback views load, then the run exits 4', async () => {
    const root = tempDir();
    const { userDir } = buildSampleCorpus(join(root, 'cursor'));
    writeFileSync(join(userDir, 'globalStorage', 'state.vscdb'), GARBAGE);
    const result = runCli([
      'run',
      '--json',
      '--cursor-user-dir',
      userDir,
      '--target',
      `duckdb:${join(root, 'w.duckdb')}`,
    ]);
    expect(result.code).toBe(4);
    const { error } = JSON.parse(result.stderr);
    expect(error.code).toBe('SOURCE_UNREADABLE');
    expect(error.details).toMatchObject({ database: 'global', outcome: 'fatal' });
    expect(result.stderr).not.toContain(userDir);
    const fidelities = await queryRows(join(root, 'w.duckdb'), 'SELECT fidelity FROM sessions');
    expect(fidelities.map((r) => r.fidelity)).toEqual(['partial', 'partial', 'partial']);
  });

  it('a garbage workspace DB is reported instead of skipped silently; the global sessions still load', () => {
    const root = tempDir();
    const { userDir } = buildSampleCorpus(join(root, 'cursor'));
    const [first] = readdirSync(join(userDir, 'workspaceStorage')).sort();
    writeFileSync(join(userDir, 'workspaceStorage', first!, 'state.vscdb'), GARBAGE);
    const { code, summary } = run(userDir, root);
    expect(code).toBe(0);
    const codes = summary.diagnostics.map((d: { code: string; details: { database?: string } }) => [
      d.code,
      d.details.database,
    ]);
    expect(codes).toContainEqual(['SOURCE_UNREADABLE', 'workspace']);
    expect(summary.run.counts.sessionsInserted).toBe(3);
  });
});
