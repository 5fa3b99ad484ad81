/**
 * Transcript lifecycle and provenance across runs, as the Session Observer contract separates them:
 * an open turn's content is kept and marked open, the next run completes it once its terminal frame
 * arrives, and a transcript rewritten with the same messages only moves their frames.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assistantLine,
  projectSlug,
  transcriptText,
  turnEnded,
  userLine,
  writeTranscript,
} from '../../fixtures/store/store-session.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

const SESSION = '90000000-0000-4000-8000-0000000000aa';
const CWD = '/home/dev/observer';

describe('transcript turns: open, then completed by the next run; moved frames are provenance', () => {
  const root = tempDir();
  const storeRoot = join(root, 'store');
  const userDir = join(root, 'User');
  mkdirSync(userDir, { recursive: true });
  const target = `duckdb:${join(root, 'w.duckdb')}`;
  const write = (text: string) => writeTranscript(storeRoot, projectSlug(CWD), SESSION, text);
  const run = () => {
    const result = runCli([
      'run',
      '--json',
      '--cursor-user-dir',
      userDir,
      '--cursor-store-root',
      storeRoot,
      '--target',
      target,
    ]);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout).run.counts;
  };
  const query = (sql: string) => JSON.parse(runCli(['query', '--json', '--target', target, sql]).stdout).rows;
  const turns = () =>
    query(`SELECT m.content, m.extensions, p.frame_index FROM messages m
      JOIN row_provenance p ON p.session_id = m.session_id AND p.row_kind = 'message' AND p.row_id = m.message_id
      WHERE m.session_id = '${SESSION}' ORDER BY m.ordinal`);
  const lines = [userLine('Summarize the log'), assistantLine('The log shows two restarts.')];

  it('keeps an open turn, completes it when the terminal frame arrives, and moves frames without a content change', () => {
    write(transcriptText([...lines]));
    expect(run()).toMatchObject({ sessionsInserted: 1 });
    const open = turns();
    expect(open.map((t: Record<string, unknown>) => t.content)).toEqual([
      'Summarize the log',
      'The log shows two restarts.',
    ]);
    for (const t of open) expect(JSON.parse(String(t.extensions))).toEqual({ turn: 'open' });

    write(transcriptText([...lines, turnEnded('success')]));
    expect(run()).toMatchObject({ sessionsReplaced: 1 });
    const complete = turns();
    expect(complete.map((t: Record<string, unknown>) => [t.content, t.extensions, t.frame_index])).toEqual([
      ['Summarize the log', null, 0],
      ['The log shows two restarts.', null, 1],
    ]);

    // Rewritten with the same messages two frames further down: only the provenance moves.
    write(
      transcriptText([
        { rawLine: '' },
        { type: 'turn_ended', status: 'success' },
        ...lines,
        turnEnded('success'),
      ]),
    );
    expect(run()).toMatchObject({ sessionsUnchanged: 1, sessionsReplaced: 0, sessionsInserted: 0 });
    expect(turns().map((t: Record<string, unknown>) => t.frame_index)).toEqual([2, 3]);
  });
});
