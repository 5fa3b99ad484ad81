import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeComposer } from '../../../fixtures/composer/composer-session.js';
import { json, StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import {
  adversarialComposers,
  adversarialSessionIds,
  adversarialText,
  writeComposers,
} from '../../../fixtures/hostile/adversarial-ids.js';
import { archivedSessions, archiveRun, verifyProblems } from '../../helpers/archive-run.js';
import { tempDir } from '../../helpers/run-cli.js';

function globalDb(userDir: string): StateDbBuilder {
  return new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
}

describe('bubble keys are owned by the longest known composer ID, never split at a colon', () => {
  it('keeps `a`, `a:b`, `a:b:c`, `a%` and `a_` apart, bubble IDs with colons included', async () => {
    const root = tempDir('etl-owners-');
    const userDir = join(root, 'User');
    const db = globalDb(userDir);
    const ids = ['a', 'a:b', 'a:b:c', 'a%', 'a_', 'a:'];
    ids.forEach((id, i) => {
      writeComposer(db, {
        id,
        bubbles: [
          { id: 'x', role: 'user', text: adversarialText(i, 0) },
          { id: 'y:z', role: 'assistant', text: adversarialText(i, 1) },
        ],
      });
    });
    // Known only by its bubbles (no composerData): the text before the first colon names it.
    db.bubble('orphan', 'z:1', json({ type: 1, bubbleId: 'z:1', text: 'orphan text' }));
    db.close();
    const warehouse = join(root, 'w.duckdb');
    const run = await archiveRun(warehouse, ['--cursor-user-dir', userDir]);
    expect(run.code).toBe(0);
    const sessions = await archivedSessions(warehouse);
    expect([...sessions.keys()].sort()).toEqual([...ids, 'orphan'].sort());
    ids.forEach((id, i) => {
      expect({ id, texts: sessions.get(id)?.texts }).toEqual({
        id,
        texts: [adversarialText(i, 0), adversarialText(i, 1)],
      });
    });
    expect(await verifyProblems(warehouse)).toEqual([]);
    const again = await archiveRun(warehouse, ['--cursor-user-dir', userDir], ['--since-last']);
    expect(again.code).toBe(0);
    expect(await archivedSessions(warehouse)).toEqual(sessions);
  });

  it('archives every generated adversarial ID with exactly its own messages (seed 7)', async () => {
    const root = tempDir('etl-owners-');
    const userDir = join(root, 'User');
    const ids = adversarialSessionIds(7, 24);
    const composers = adversarialComposers(7, ids);
    const db = globalDb(userDir);
    writeComposers(db, composers);
    db.close();
    const warehouse = join(root, 'w.duckdb');
    expect((await archiveRun(warehouse, ['--cursor-user-dir', userDir])).code).toBe(0);
    const sessions = await archivedSessions(warehouse);
    const expected = new Map(composers.map((c) => [c.id, c.bubbles.map((b) => b.text)]));
    expect(new Map([...sessions].map(([id, s]) => [id, s.texts]))).toEqual(expected);
    expect(await verifyProblems(warehouse)).toEqual([]);
  });
});
