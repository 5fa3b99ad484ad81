/** A 2024 inline workspace index entry: its stored mode reaches the session's usage rows. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineIndex, writeWorkspace } from '../../../fixtures/composer/workspace-db-builder.js';
import { archiveRun } from '../../helpers/archive-run.js';
import { queryRows } from '../../helpers/query-warehouse.js';
import { tempDir } from '../../helpers/run-cli.js';

const ID = 'f0000000-0000-4000-8000-0000000000e1';

describe('composer workspace view', () => {
  it('an inline entry’s unifiedMode string goes onto its usage rows as stored', async () => {
    const root = tempDir('etl-ws-mode-');
    const userDir = join(root, 'User');
    const index = inlineIndex([
      {
        id: ID,
        name: 'Inline with mode',
        createdAt: Date.UTC(2024, 5, 1),
        lastUpdatedAt: Date.UTC(2024, 5, 2),
        bubbles: [
          { id: 'i-1', role: 'user', text: 'Plan a sidebar' },
          { id: 'i-2', role: 'assistant', text: 'A plan', model: 'gpt-4o', tokens: { input: 40, output: 9 } },
        ],
      },
    ]) as { allComposers: Record<string, unknown>[] };
    index.allComposers[0]!.unifiedMode = 'Chat';
    writeWorkspace(userDir, {
      storageId: 'ws-mode',
      workspaceJson: { folder: 'file:///w/mode' },
      composerIndex: index,
    });
    const warehouse = join(root, 'w.duckdb');
    const run = await archiveRun(warehouse, ['--cursor-user-dir', userDir]);
    expect(run.code, run.stderr).toBe(0);
    expect(
      await queryRows(
        warehouse,
        'SELECT model, mode, input_tokens, representation FROM usage ORDER BY usage_ordinal',
      ),
    ).toEqual([{ model: 'gpt-4o', mode: 'Chat', input_tokens: 40, representation: 'composer-workspace' }]);
  });
});
