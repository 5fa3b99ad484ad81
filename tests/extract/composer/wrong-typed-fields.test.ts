import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeComposer } from '../../../fixtures/composer/composer-session.js';
import { json, StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import { archivedSessions, archiveRun, verifyProblems } from '../../helpers/archive-run.js';
import { tempDir } from '../../helpers/run-cli.js';

const ID = 'c0111150-0000-4000-8000-0000000000f1';
const DAMAGE: [string, (db: StateDbBuilder) => void, string][] = [
  [
    'text an object',
    (db) => db.bubble(ID, 'b1', json({ type: 1, text: { x: 1 } })),
    'COMPOSER_BUBBLE_CORRUPTED',
  ],
  ['text an array', (db) => db.bubble(ID, 'b1', json({ type: 1, text: ['x'] })), 'COMPOSER_BUBBLE_CORRUPTED'],
  ['an empty bubble', (db) => db.bubble(ID, 'b1', json({})), 'COMPOSER_BUBBLE_CORRUPTED'],
  ['type a string', (db) => db.bubble(ID, 'b1', json({ type: '2', text: 'x' })), 'COMPOSER_BUBBLE_CORRUPTED'],
  ['composerData {}', (db) => db.composerData(ID, json({})), 'COMPOSER_DATA_UNREADABLE'],
  [
    'a numeric title',
    (db) => db.composerData(ID, json({ composerId: ID, name: 7 })),
    'COMPOSER_DATA_UNREADABLE',
  ],
];

describe('a field present with the wrong type is damage: the view is partial and never replaces the archive', () => {
  for (const [name, damage, code] of DAMAGE) {
    it(`${name}: ${code}, archived session unchanged under --since-last`, async () => {
      const root = tempDir('etl-typed-');
      const userDir = join(root, 'User');
      const path = join(userDir, 'globalStorage', 'state.vscdb');
      let db = new StateDbBuilder(path);
      writeComposer(db, {
        id: ID,
        name: 'Title',
        bubbles: [
          { id: 'b1', role: 'user', text: 'question' },
          { id: 'b2', role: 'assistant', text: 'answer' },
        ],
      });
      db.close();
      const warehouse = join(root, 'w.duckdb');
      expect((await archiveRun(warehouse, ['--cursor-user-dir', userDir])).code).toBe(0);
      const before = await archivedSessions(warehouse);
      db = new StateDbBuilder(path);
      damage(db);
      db.close();
      const run = await archiveRun(warehouse, ['--cursor-user-dir', userDir], ['--since-last']);
      expect({ code: run.code, codes: run.codes }).toEqual({
        code: 0,
        codes: expect.arrayContaining([code]),
      });
      expect(await archivedSessions(warehouse)).toEqual(before);
      expect(await verifyProblems(warehouse)).toEqual([]);
    });
  }
});
