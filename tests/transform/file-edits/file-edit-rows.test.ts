import { describe, expect, it } from 'vitest';
import { completeBasic, editRun } from '../../../fixtures/capture/cli-captures.js';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import {
  editCall,
  everyEditShape,
  hostileEdits,
  unknownEditShapes,
  WORKSPACE,
} from '../../../fixtures/file-edits/edit-tool-calls.js';
import { editPath, fileEditRows } from '../../../src/transform/file-edits/file-edit-rows.js';
import { onlySession, readCaptures } from '../../helpers/capture-sessions.js';
import { tempDir } from '../../helpers/run-cli.js';

const messages = [{ message_id: 'm1' }, { message_id: 'm2' }];
const rowsOf = (toolCalls: ReturnType<typeof everyEditShape>, workspacePath: string | null = WORKSPACE) =>
  fileEditRows({ sessionId: 's1', workspacePath, messages, toolCalls });

describe('file_edits rows from edit tool calls', () => {
  it('reads each edit shape: path, counts, texts, decision; one row per MultiEdit edit; other tools none', () => {
    const { rows, diagnostics } = rowsOf(everyEditShape());
    expect(diagnostics).toEqual([]);
    expect(
      rows.map((r) => [
        r.message_id,
        r.tool_ordinal,
        r.edit_ordinal,
        r.tool_name,
        r.path,
        r.lines_added,
        r.lines_removed,
        r.user_decision,
        r.decision_source,
      ]),
    ).toEqual([
      ['m1', 0, 0, 'edit_file', `${WORKSPACE}/src/app.ts`, 3, 1, 'accepted', 'tool-call-user-decision'],
      ['m1', 1, 1, 'search_replace', `${WORKSPACE}/src/util.ts`, 2, 1, 'rejected', 'tool-call-user-decision'],
      ['m1', 3, 2, 'StrReplace', 'c:/work/api/src/x.ts', 1, 1, 'unknown', null],
      ['m2', 0, 0, 'Write', `${WORKSPACE}/docs/NOTES.md`, null, null, 'pending', 'tool-call-user-decision'],
      ['m2', 1, 1, 'MultiEdit', `${WORKSPACE}/src/app.ts`, 1, 0, 'unknown', null],
      ['m2', 1, 2, 'MultiEdit', `${WORKSPACE}/src/app.ts`, null, null, 'unknown', null],
    ]);
    expect(rows[0]).toMatchObject({
      diff: '+a\n+b\n-c\n keep\n+d',
      old_text: null,
      new_text: "app.get('/health', health);",
      workspace_path: WORKSPACE,
      session_id: 's1',
    });
    expect(rows[1]).toMatchObject({ old_text: 'a\nb\n', new_text: 'a\nB\nc\n', diff: null });
    expect(rows[3]).toMatchObject({ old_text: null, new_text: 'one\ntwo\n', extensions: null });
    expect(rows[5]!.extensions).toBe('{"replaceAll":true}');
  });

  it('keeps an unknown edit shape as one row with its params raw and no guessed field', () => {
    const { rows, diagnostics } = rowsOf(unknownEditShapes());
    expect(diagnostics).toEqual([]);
    expect(rows.map((r) => [r.tool_name, r.path, r.lines_added, r.old_text, r.new_text, r.diff])).toEqual([
      ['apply_patch', null, null, null, null, null],
      ['search_replace', null, null, null, null, null],
    ]);
    expect(JSON.parse(rows[0]!.extensions!)).toEqual({
      shape: 'unknown',
      params: { patch: '*** Update File: src/app.ts\n+x' },
    });
    expect(JSON.parse(rows[1]!.extensions!)).toEqual({
      shape: 'unknown',
      params: { _raw: 'file_path=src/app.ts' },
    });
  });

  it('drops hostile values to NULL/unknown with one typed diagnostic per field, never a guess', () => {
    const { rows, diagnostics } = rowsOf(hostileEdits());
    expect(rows.map((r) => [r.path, r.lines_added, r.lines_removed, r.old_text, r.user_decision])).toEqual([
      [null, null, null, null, 'unknown'],
      [null, null, null, null, 'unknown'],
    ]);
    expect(diagnostics.map((d) => [d.code, d.details, d.sessionId])).toEqual(
      ['file_path', 'old_string', 'path', 'result.linesAdded', 'result.linesRemoved', 'user_decision'].map(
        (field) => ['FILE_EDIT_VALUE_INVALID', { field, count: 1 }, 's1'],
      ),
    );
    for (const d of diagnostics) expect(d.message).not.toMatch(/approved|src|42/);
  });

  it('normalizes paths like workspace paths; relative ones join the workspace or stay relative', () => {
    expect(editPath('file:///home/dev/a%20b/x.ts', null)).toBe('/home/dev/a b/x.ts');
    expect(editPath('./src\\a.ts', null)).toBe('src/a.ts');
    expect(editPath('src/../lib/a.ts', '/w')).toBe('/w/lib/a.ts');
    expect(editPath('untitled:Untitled-1', '/w')).toBeNull();
    expect(editPath('', '/w')).toBeNull();
    const row = rowsOf([editCall('m1', 0, 'Write', { path: 'a.ts', content: 'x' })], null).rows[0]!;
    expect([row.path, row.workspace_path]).toEqual(['a.ts', null]);
  });
});

describe('file_edits rows of CLI captures (editToolCall, writeToolCall)', () => {
  const read = async (content: string) =>
    onlySession(await readCaptures([writeCapture(tempDir(), 'run.ndjson', content)]));

  it('writeToolCall: the stated linesCreated, the written text, the path joined to the cwd', async () => {
    const s = await read(completeBasic());
    expect(s.fileEdits).toHaveLength(1);
    expect(s.fileEdits[0]).toMatchObject({
      tool_name: 'write',
      path: '/synthetic/ws/NOTES.md',
      lines_added: 1,
      lines_removed: null,
      new_text: 'hello\n',
      user_decision: 'unknown',
      message_id: s.messages[1]!.message_id,
    });
  });

  it('editToolCall: stated counts and diff; a rejected call is a rejected edit', async () => {
    const s = await read(editRun());
    expect(
      s.fileEdits.map((e) => [e.tool_name, e.path, e.lines_added, e.lines_removed, e.user_decision]),
    ).toEqual([
      ['edit', '/synthetic/ws/src/index.ts', 2, 1, 'unknown'],
      ['edit', '/synthetic/ws/src/other.ts', null, null, 'rejected'],
    ]);
    expect(s.fileEdits[0]!.diff).toContain('+export const b = 1;');
    expect(s.fileEdits.map((e) => e.edit_ordinal)).toEqual([0, 1]);
  });
});
