import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BackupSpec, writeBackup } from '../../../fixtures/backup/backup-builder.js';
import { BackupAdapter } from '../../../src/extract/backup/backup-adapter.js';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { ReadCounters } from '../../../src/extract/read-counters.js';
import { DiagnosticSink } from '../../../src/shared/diagnostic.js';
import { PrivateTempDir } from '../../../src/shared/temp/private-temp-dir.js';
import {
  isolatedTmpdir,
  queryRows,
  runBackups,
  tempResidue,
  twoMessageComposer,
} from '../../helpers/backup-run.js';

const SPEC: BackupSpec = {
  global: [twoMessageComposer('a'), twoMessageComposer('B'), twoMessageComposer('b')],
  workspaces: [{ id: 'w1', folder: '/home/dev/a', headIds: ['a'] }],
};

const tmp = isolatedTmpdir('etl-backup-valid-');

describe('valid backup archives load every archived session', () => {
  const variants: [string, Partial<BackupSpec>][] = [
    ['STORE without inventory', { method: 'store' }],
    ['DEFLATE with inventory', { method: 'deflate', inventory: true }],
    ['ZIP64 records', { zip: { zip64: true }, inventory: true }],
  ];
  for (const [label, variant] of variants) {
    it(`${label}: case-variant IDs stay separate sessions, rows carry backup provenance`, async () => {
      const warehouse = join(tmp.path, `${label.replace(/\W+/g, '-')}.duckdb`);
      const archive = writeBackup(join(tmp.path, `${label.replace(/\W+/g, '-')}.zip`), {
        ...SPEC,
        ...variant,
      });
      const summary = await runBackups([archive], warehouse);
      expect(summary.counts.sessionsInserted).toBe(3);
      expect(summary.diagnostics.filter((d) => d.code.startsWith('BACKUP_'))).toEqual([]);
      const rows = await queryRows(
        warehouse,
        'select session_id, representation, carrier, state from source_instances order by session_id, representation',
      );
      expect(rows).toEqual([
        { session_id: 'B', representation: 'composer-global', carrier: 'backup', state: 'contributed' },
        { session_id: 'a', representation: 'composer-global', carrier: 'backup', state: 'contributed' },
        { session_id: 'a', representation: 'composer-workspace', carrier: 'backup', state: 'superseded' },
        { session_id: 'b', representation: 'composer-global', carrier: 'backup', state: 'contributed' },
      ]);
      expect(tempResidue(tmp.path)).toEqual([]);
    });
  }

  it('a second run over the same archive writes nothing (archive-stable occurrence references)', async () => {
    const warehouse = join(tmp.path, 'twice.duckdb');
    const archive = writeBackup(join(tmp.path, 'twice.zip'), SPEC);
    await runBackups([archive], warehouse);
    const again = await runBackups([archive], warehouse);
    expect(again.counts).toMatchObject({ sessionsInserted: 0, sessionsReplaced: 0, sessionsUnchanged: 3 });
  });

  it('a workspace-scoped read extracts only that workspace DB and never the global DB', async () => {
    const archive = writeBackup(join(tmp.path, 'scoped.zip'), { ...SPEC, inventory: true });
    const temp = PrivateTempDir.create(tmp.path);
    const diagnostics = new DiagnosticSink();
    const adapter = new BackupAdapter();
    try {
      const sources = await adapter.discover(
        { cursorUserDir: null, cursorStoreRoot: null, inputs: [], backups: [archive], carrier: 'custom' },
        {
          limits: DEFAULT_READ_LIMITS,
          temp,
          counters: new ReadCounters(),
          scope: null,
          requestedWorkspace: '/home/dev/a',
          includeCrossWorkspaceSources: true,
          signal: new AbortController().signal,
          diagnostics,
        },
      );
      expect(sources.map((s) => [s.kind, s.carrier])).toEqual([['composer-workspace-db', 'backup']]);
      const extracted = readdirSync(temp.path, { recursive: true }).map(String).sort();
      expect(extracted.some((p) => p.includes('globalStorage'))).toBe(false);
      expect(extracted.filter((p) => p.endsWith('state.vscdb'))).toHaveLength(1);
      expect(diagnostics.items.map((d) => d.code)).toEqual(['BACKUP_GLOBAL_OMITTED_BY_SCOPE']);
    } finally {
      adapter.close();
      temp.dispose();
    }
    expect(tempResidue(tmp.path)).toEqual([]);
  });
});
