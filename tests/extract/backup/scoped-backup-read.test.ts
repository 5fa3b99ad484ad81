import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeBackup } from '../../../fixtures/backup/backup-builder.js';
import {
  isolatedTmpdir,
  queryRows,
  runBackups,
  tempResidue,
  twoMessageComposer,
} from '../../helpers/backup-run.js';

const tmp = isolatedTmpdir('etl-backup-scoped-');

describe('workspace-scoped backup reads', () => {
  it('the scoped view is explicitly partial with the never-extracted global instance omitted-by-scope', async () => {
    const archive = writeBackup(join(tmp.path, 'scoped.zip'), {
      global: [twoMessageComposer('c-acme'), twoMessageComposer('c-other')],
      workspaces: [
        { id: 'w1', folder: '/home/dev/acme', headIds: ['c-acme'] },
        { id: 'w2', folder: '/home/dev/other', headIds: ['c-other'] },
      ],
      inventory: true,
    });
    const warehouse = join(tmp.path, 'scoped.duckdb');
    const summary = await runBackups([archive], warehouse, { workspace: '/home/dev/acme' });
    expect(summary.diagnostics.map((d) => d.code)).toContain('BACKUP_GLOBAL_OMITTED_BY_SCOPE');
    const sessions = await queryRows(
      warehouse,
      'select session_id, fidelity from sessions order by session_id',
    );
    expect(sessions).toEqual([{ session_id: 'c-acme', fidelity: 'partial' }]);
    const instances = await queryRows(
      warehouse,
      'select carrier, representation, state from source_instances order by representation',
    );
    expect(instances).toEqual([
      { carrier: 'backup', representation: 'composer-global', state: 'omitted-by-scope' },
      { carrier: 'backup', representation: 'composer-workspace', state: 'contributed' },
    ]);
    expect(tempResidue(tmp.path)).toEqual([]);
  });
});
