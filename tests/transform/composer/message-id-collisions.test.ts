import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bubbleValue, writeComposer } from '../../../fixtures/composer/composer-session.js';
import { json, StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import { archivedSessions, archiveRun, verifyProblems } from '../../helpers/archive-run.js';
import { queryRows } from '../../helpers/query-warehouse.js';
import { tempDir } from '../../helpers/run-cli.js';

const ID = 'c0111150-0000-4000-8000-000000000001';

function write(userDir: string, claimants: number): void {
  const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
  writeComposer(db, {
    id: ID,
    bubbles: [
      { id: 'x', role: 'user', text: 'first' },
      // A native ID that spells the first collision suffix: the suffix skips it.
      { id: 'x:collision:1', role: 'assistant', text: 'native suffix' },
    ],
  });
  for (let n = 0; n < claimants; n++) {
    const value = bubbleValue({
      id: 'x',
      role: 'assistant',
      text: `claimant ${n}`,
      tool: { name: 'read_file', params: { targetFile: 'a.ts' } },
    });
    db.bubble(ID, `other-${n}`, json(value));
  }
  db.close();
}

describe('"A Store-only collision appends the smallest available :collision:<n>": two bubbles claiming one message ID', () => {
  it('keeps every message under a distinct ID, the view partial, and the warehouse passes verify', async () => {
    const root = tempDir('etl-collision-');
    const userDir = join(root, 'User');
    write(userDir, 2);
    const warehouse = join(root, 'w.duckdb');
    const run = await archiveRun(warehouse, ['--cursor-user-dir', userDir]);
    expect(run.code).toBe(0);
    expect(run.codes).toEqual(['COMPOSER_MESSAGE_ID_COLLISION']);
    expect(await verifyProblems(warehouse)).toEqual([]);
    const session = (await archivedSessions(warehouse)).get(ID);
    expect(session?.fidelity).toBe('partial');
    expect(session?.texts).toEqual(['first', 'native suffix', 'claimant 0', 'claimant 1']);
    const ids = await queryRows(warehouse, 'SELECT message_id FROM messages ORDER BY ordinal');
    expect(ids.map((r) => r.message_id)).toEqual(['x', 'x:collision:1', 'x:collision:2', 'x:collision:3']);
    const tools = await queryRows(warehouse, 'SELECT count(DISTINCT tool_id) AS n FROM tool_calls');
    expect(Number(tools[0]!.n)).toBe(2);
  });

  it('a collision appearing in an archived complete session leaves it unchanged under --since-last', async () => {
    const root = tempDir('etl-collision-');
    const userDir = join(root, 'User');
    write(userDir, 0);
    const warehouse = join(root, 'w.duckdb');
    expect((await archiveRun(warehouse, ['--cursor-user-dir', userDir])).code).toBe(0);
    const before = await archivedSessions(warehouse);
    expect(before.get(ID)?.fidelity).toBe('complete');
    write(userDir, 1);
    const run = await archiveRun(warehouse, ['--cursor-user-dir', userDir], ['--since-last']);
    expect(run.code).toBe(0);
    expect(run.codes).toContain('COMPOSER_MESSAGE_ID_COLLISION');
    expect(await archivedSessions(warehouse)).toEqual(before);
    expect(await verifyProblems(warehouse)).toEqual([]);
  });
});
