import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildWorkspaceCorpus,
  FOLDERS,
  type WorkspaceCorpus,
} from '../../fixtures/workspace/workspace-corpus.js';
import { freshLoad } from '../helpers/fresh-load.js';
import { tempDir } from '../helpers/run-cli.js';

let corpus: WorkspaceCorpus;
let root: string;
function load(...flags: string[]) {
  return freshLoad(root, [
    '--cursor-user-dir',
    corpus.userDir,
    '--cursor-store-root',
    corpus.storeRoot,
    '--input',
    corpus.inputs,
    ...flags,
  ]);
}

beforeAll(() => {
  root = tempDir('etl-spellings-');
  corpus = buildWorkspaceCorpus(join(root, 'corpus'), 3, 36);
});

describe('One workspace per folder: every spelling of every source joins one stored value', {
  timeout: 240_000,
}, () => {
  it('Composer URIs, Store and capture cwds and Cloud repositories store the normalized folder; the run commits', () => {
    const { output, rows } = load();
    expect(output.run.status).toBe('committed');
    const stored = new Map(
      rows('select session_id, workspace_path from sessions').map((r) => [r.session_id, r.workspace_path]),
    );
    const wrong = corpus.sessions
      .filter((s) => stored.get(s.sessionId) !== s.stored)
      .map((s) => ({ ...s, got: stored.get(s.sessionId) ?? 'missing' }));
    expect(wrong).toEqual([]);
    const instances = rows(
      "select session_id, workspace_path from source_instances where state = 'contributed'",
    );
    for (const i of instances) expect(i.workspace_path).toBe(stored.get(i.session_id));
    // One row per folder in the analyst view: spellings never split a workspace.
    const activity = rows('select workspace, sessions::int as sessions from v_workspace_activity order by 1');
    expect(activity).toEqual(
      [...FOLDERS]
        .map((f) => ({
          workspace: f.stored,
          sessions: corpus.sessions.filter((s) => s.stored === f.stored).length,
        }))
        .sort((a, b) => (a.workspace < b.workspace ? -1 : 1)),
    );
  });

  it.each(FOLDERS.map((f) => f.stored))(
    '--workspace %j selects exactly what the stored value says, captures included',
    (folder) => {
      const { rows } = load('--workspace', folder);
      const selected = rows('select session_id from sessions order by 1').map((r) => r.session_id);
      expect(selected).toEqual(
        corpus.sessions
          .filter((s) => s.stored === folder)
          .map((s) => s.sessionId)
          .sort(),
      );
    },
  );
});
