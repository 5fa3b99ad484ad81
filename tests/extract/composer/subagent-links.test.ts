import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { json, StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import {
  SUBAGENT_IDS as IDS,
  TASK_CALLS,
  writeSubagentCorpus,
} from '../../../fixtures/subagent/subagent-corpus.js';
import { SubagentLinks } from '../../../src/extract/composer/subagent-links.js';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { tempDir } from '../../helpers/run-cli.js';

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function globalDb(userDir: string): Database.Database {
  const db = new Database(join(userDir, 'globalStorage', 'state.vscdb'), { readonly: true });
  open.push(db);
  return db;
}

describe('subagent evidence outside a session’s own rows', () => {
  it('the headers table row, the header JSON and each parent listing, strongest first', () => {
    const db = globalDb(writeSubagentCorpus(tempDir()).userDir);
    const links = new SubagentLinks(db, DEFAULT_READ_LIMITS);
    expect(
      links.of(IDS.child).map((e) => [e.source, e.parentSessionId, e.spawnToolCallId, e.subagentType]),
    ).toEqual([
      ['composer-headers-table', IDS.parent, TASK_CALLS.child, 'explore'],
      ['composer-header-json', IDS.parent, TASK_CALLS.child, null],
      ['parent-listing', IDS.parent, null, null],
    ]);
    expect(links.of(IDS.parent)).toEqual([]);
  });

  it('the 9-column table has no type column; the row still names the parent', () => {
    const db = globalDb(writeSubagentCorpus(tempDir(), { headerColumns: 9 }).userDir);
    const [row] = new SubagentLinks(db, DEFAULT_READ_LIMITS).of(IDS.ideOnlyChild);
    expect(row).toMatchObject({
      source: 'composer-headers-table',
      parentSessionId: IDS.parent,
      subagentType: null,
    });
  });

  it('a DB without the tables or keys yields nothing; a listing over the value bound is skipped', () => {
    const dir = tempDir();
    const builder = new StateDbBuilder(join(dir, 'globalStorage', 'state.vscdb'), {
      tables: ['cursorDiskKV'],
    });
    builder.composerData('p', json({ subagentComposerIds: ['c'], pad: 'x'.repeat(2000) }));
    builder.composerData('q', json({ subagentComposerIds: ['c', 7, null] }));
    builder.close();
    const db = globalDb(dir);
    expect(new SubagentLinks(db, DEFAULT_READ_LIMITS).of('c').map((e) => e.parentSessionId)).toEqual([
      'p',
      'q',
    ]);
    const tight = { ...DEFAULT_READ_LIMITS, sqliteValueBytes: 1000 };
    expect(new SubagentLinks(db, tight).of('c').map((e) => e.parentSessionId)).toEqual(['q']);
    expect(new SubagentLinks(db, DEFAULT_READ_LIMITS).of('x')).toEqual([]);
  });
});
