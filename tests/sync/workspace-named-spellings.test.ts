import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSpelledCorpus, type SpellingSource } from '../../fixtures/workspace/workspace-corpus.js';
import { freshLoad } from '../helpers/fresh-load.js';
import { tempDir } from '../helpers/run-cli.js';

const APP = 'c:/users/dev/app';
const TRAIL = '/home/dev/trail';

/** Each spelling issue #36 names, per source that writes that kind of value. */
const SPELLINGS: [SpellingSource, string, string][] = [
  ['composer', 'file:///c%3A/Users/dev/app', APP],
  ['composer', 'file:///C:/Users/Dev/App', APP],
  ['composer', 'vscode-remote://wsl%2BUbuntu/mnt/c/Users/dev/app', APP],
  ['composer', 'file:///home/dev/./trail', TRAIL],
  ['composer', 'file:///home/dev//trail', TRAIL],
  ['composer', 'file:///home/dev/trail%20', `${TRAIL} `],
  ...(['store', 'capture'] as const).flatMap((source): [SpellingSource, string, string][] => [
    [source, 'C:\\Users\\dev\\app', APP],
    [source, 'c:\\users\\dev\\app', APP],
    [source, '/mnt/c/Users/dev/app', APP],
    [source, '/home/dev/./trail', TRAIL],
    [source, '/home/dev//trail', TRAIL],
    [source, '/home/dev/trail/', TRAIL],
    [source, '/home/dev/trail ', `${TRAIL} `],
  ]),
  ...(['cloud', 'cloud-v0'] as const).flatMap((source): [SpellingSource, string, string][] => [
    [source, 'https://github.com/example/repo', 'https://github.com/example/repo'],
    [source, 'git@GitHub.com:example/repo.git', 'https://github.com/example/repo'],
    [source, 'https://token@github.com/example/repo/', 'https://github.com/example/repo'],
  ]),
];

describe('One workspace per folder: each named spelling of each source', { timeout: 240_000 }, () => {
  it('stores the one normalized value, joins one workspace row per folder, and the run commits', () => {
    const root = tempDir('etl-named-spellings-');
    const corpus = buildSpelledCorpus(
      join(root, 'corpus'),
      SPELLINGS.map(([source, spelling, stored]) => ({ source, spelling, stored })),
    );
    const { output, rows } = freshLoad(root, [
      '--cursor-user-dir',
      corpus.userDir,
      '--cursor-store-root',
      corpus.storeRoot,
      '--input',
      corpus.inputs,
    ]);
    expect(output.run.status).toBe('committed');
    const stored = new Map(
      rows('select session_id, workspace_path from sessions').map((r) => [r.session_id, r.workspace_path]),
    );
    const wrong = corpus.sessions
      .filter((s) => stored.get(s.sessionId) !== s.stored)
      .map(
        (s) =>
          `${s.source} ${JSON.stringify(s.spelling)}: ${JSON.stringify(stored.get(s.sessionId) ?? 'missing')}`,
      );
    expect(wrong).toEqual([]);
    const activity = rows('select workspace, sessions::int as sessions from v_workspace_activity order by 1');
    const expected = new Map<string, number>();
    for (const [, , folder] of SPELLINGS) expected.set(folder, (expected.get(folder) ?? 0) + 1);
    expect(activity).toEqual(
      [...expected]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([workspace, sessions]) => ({ workspace, sessions })),
    );
  });
});
