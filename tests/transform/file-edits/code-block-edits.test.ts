import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeComposer } from '../../../fixtures/composer/composer-session.js';
import { StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import {
  codeBlockComposer,
  codeBlockDiffRows,
  WORKSPACE,
} from '../../../fixtures/file-edits/edit-tool-calls.js';
import { tempDir } from '../../helpers/run-cli.js';
import { queryRows, runJson } from '../../helpers/warehouse-cli.js';

const ID = 'c0de0b10-0000-4000-8000-000000000001';
const EDITS_SQL = `SELECT message_id, tool_ordinal, edit_ordinal, tool_name, path, lines_added, lines_removed,
  new_text, user_decision, decision_source, extensions FROM file_edits ORDER BY message_id, edit_ordinal`;

let userDir = '';
beforeAll(() => {
  userDir = join(tempDir('etl-code-blocks-'), 'User');
  const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
  writeComposer(db, codeBlockComposer(ID));
  for (const [key, value] of codeBlockDiffRows(ID)) db.put('cursorDiskKV', key, { json: value });
  db.close();
});

describe('file_edits from Composer codeBlockData and tool calls, in both targets', () => {
  it('one row per entry naming a message, after its tool-call edits; statuses map to decisions', () => {
    const target = `duckdb:${join(tempDir(), 'w.duckdb')}`;
    runJson(['--cursor-user-dir', userDir, '--target', target]);
    const rows = queryRows(target, EDITS_SQL);
    expect(rows.map((r) => [r.tool_ordinal, r.edit_ordinal, r.tool_name, r.path, r.new_text])).toEqual([
      [0, 0, 'search_replace', `${WORKSPACE}/src/handler.ts`, 'b'],
      [null, 1, null, `${WORKSPACE}/src/handler.ts`, 'export const h = 1;\n'],
      [null, 2, null, `${WORKSPACE}/src/extra.ts`, 'x'],
      [null, 3, null, `${WORKSPACE}/src/extra.ts`, null],
    ]);
    expect(rows.map((r) => [r.user_decision, r.decision_source])).toEqual([
      ['accepted', 'tool-call-user-decision'],
      ['accepted', 'code-block-status'],
      ['rejected', 'code-block-status'],
      ['unknown', null],
    ]);
    // Counts from the codeBlockDiff row the entry's diffId names: non-empty modified lines, range lengths;
    // a hostile row or no diffId leaves them NULL, never a guess.
    expect(rows.slice(1).map((r) => [r.lines_added, r.lines_removed])).toEqual([
      [2, 3],
      [null, null],
      [null, null],
    ]);
    expect(rows[1]!.extensions).toBe('{"codeBlockIdx":0}');
    const found = queryRows(
      target,
      "SELECT details FROM diagnostics WHERE code = 'FILE_EDIT_VALUE_INVALID' ORDER BY details",
    );
    expect(found.map((d) => JSON.parse(String(d.details)))).toEqual([
      { field: 'codeBlockData.content', count: 1 },
      { field: 'codeBlockDiff.modified', count: 1 },
    ]);
    const [acceptance] = queryRows(target, "SELECT * FROM v_edit_acceptance WHERE model = 'gpt-5'");
    expect(acceptance).toMatchObject({ edits: 4, accepted: 2, rejected: 1, unknown: 1 });
    expect(Number(acceptance!.acceptance_rate)).toBeCloseTo(2 / 3);
    const [session] = queryRows(target, 'SELECT edits, files, first_edit FROM v_session_edits');
    expect(session).toMatchObject({ edits: 4, files: 2 });
  });

  it('the Parquet dataset holds the same rows', () => {
    const duck = `duckdb:${join(tempDir(), 'w.duckdb')}`;
    const parquet = `parquet:${join(tempDir(), 'dataset')}`;
    runJson(['--cursor-user-dir', userDir, '--target', duck]);
    runJson(['--cursor-user-dir', userDir, '--target', parquet]);
    expect(queryRows(parquet, EDITS_SQL)).toEqual(queryRows(duck, EDITS_SQL));
    expect(queryRows(parquet, 'SELECT count(*) AS n FROM v_top_changed_files')).toEqual([{ n: 2 }]);
  });
});
