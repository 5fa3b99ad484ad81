import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeBackup } from '../../fixtures/backup/backup-builder.js';
import { type FixtureComposer, writeComposer } from '../../fixtures/composer/composer-session.js';
import { StateDbBuilder } from '../../fixtures/composer/state-db-builder.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

const composer = (id: string, text: string): FixtureComposer => ({
  id,
  name: `title ${id}`,
  createdAt: 1_750_000_000_000,
  lastUpdatedAt: 1_750_000_100_000,
  bubbles: [
    { id: `${id}-1`, role: 'user', text, createdAt: '2025-06-15T12:00:00.000Z' },
    { id: `${id}-2`, role: 'assistant', text: `answer: ${text}`, createdAt: '2025-06-15T12:00:05.000Z' },
  ],
});

let root: string;
let emptyUserDir: string;

const run = (target: string, ...args: string[]) =>
  runCli(['run', '--json', '--cursor-user-dir', emptyUserDir, '--target', `duckdb:${target}`, ...args]);
const query = (target: string, sql: string): Record<string, unknown>[] =>
  JSON.parse(runCli(['query', '--json', '--target', `duckdb:${target}`, sql]).stdout).rows;

const SESSION_SQL = `select s.session_id, s.fidelity, s.resolution_state, s.resolved_source,
  (select count(*)::int from messages m where m.session_id = s.session_id) as messages,
  (select string_agg(i.carrier || '/' || i.representation || '/' || i.state, ',' order by i.instance_ordinal)
     from source_instances i where i.session_id = s.session_id) as instances
  from sessions s order by s.session_id`;

beforeAll(() => {
  root = tempDir('etl-backup-matrix-');
  emptyUserDir = join(root, 'empty-user');
  mkdirSync(emptyUserDir);
});

describe('Compatibility Matrix v1, Supported backup carrier (through the CLI)', { timeout: 180_000 }, () => {
  it('Supported backup: Composer global', () => {
    const archive = writeBackup(join(root, 'global.zip'), {
      global: [composer('c-global', 'hello from the archive')],
      workspaces: [{ id: 'w1', folder: '/home/dev/acme', headIds: ['c-global'] }],
      inventory: true,
      method: 'deflate',
    });
    const target = join(root, 'global.duckdb');
    const result = run(target, '--backup', archive);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).run.counts.sessionsInserted).toBe(1);
    expect(query(target, SESSION_SQL)).toEqual([
      {
        session_id: 'c-global',
        fidelity: 'complete',
        resolution_state: 'complete',
        resolved_source: 'composer',
        messages: 2,
        instances: 'backup/composer-global/contributed,backup/composer-workspace/superseded',
      },
    ]);
  });

  it('Supported backup: Equivalent same-role Composer replicas', () => {
    const spec = { global: [composer('c-rep', 'same everywhere')] };
    const first = writeBackup(join(root, 'rep-a.zip'), spec);
    const second = writeBackup(join(root, 'rep-b.zip'), { ...spec, zip: { zip64: true } });
    const target = join(root, 'replicas.duckdb');
    expect(run(target, '--backup', first, '--backup', second).code).toBe(0);
    expect(query(target, SESSION_SQL)).toEqual([
      {
        session_id: 'c-rep',
        fidelity: 'complete',
        resolution_state: 'complete',
        resolved_source: 'composer',
        messages: 2,
        instances: 'backup/composer-global/contributed,backup/composer-global/equivalent-replica',
      },
    ]);
  });

  it('Supported backup: Composer workspace fallback', () => {
    const archive = writeBackup(join(root, 'fallback.zip'), {
      global: [],
      workspaces: [
        { id: 'w1', folder: '/home/dev/acme', inline: [composer('c-inline', 'only in the workspace')] },
      ],
      inventory: true,
    });
    const target = join(root, 'fallback.duckdb');
    expect(run(target, '--backup', archive).code).toBe(0);
    expect(query(target, SESSION_SQL)).toEqual([
      {
        session_id: 'c-inline',
        fidelity: 'partial',
        resolution_state: 'partial',
        resolved_source: 'composer',
        messages: 2,
        instances: 'backup/composer-workspace/contributed',
      },
    ]);
  });

  it('Supported backup: Divergent same-role Composer replicas', () => {
    const first = writeBackup(join(root, 'div-a.zip'), { global: [composer('c-div', 'first wording')] });
    const second = writeBackup(join(root, 'div-b.zip'), { global: [composer('c-div', 'second wording')] });
    const target = join(root, 'divergent.duckdb');
    const result = run(target, '--backup', first, '--backup', second);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).diagnostics.map((d: { code: string }) => d.code)).toContain(
      'REPLICA_DIVERGENT',
    );
    expect(query(target, SESSION_SQL)).toMatchObject([
      { session_id: 'c-div', resolution_state: 'ambiguous', fidelity: 'partial', messages: 0 },
    ]);
  });
});

describe('backup archive semantics (through the CLI)', { timeout: 180_000 }, () => {
  it('a backup never replaces a complete session loaded from a live source unless --backup-may-replace', () => {
    const userDir = join(root, 'live-user');
    const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
    writeComposer(db, composer('c-live', 'current live text'));
    db.close();
    const archive = writeBackup(join(root, 'older.zip'), {
      global: [composer('c-live', 'older archived text'), composer('c-gone', 'only in the archive')],
    });
    const target = join(root, 'semantics.duckdb');
    const live = runCli(['run', '--json', '--cursor-user-dir', userDir, '--target', `duckdb:${target}`]);
    expect(live.code).toBe(0);
    const contentSql =
      "select string_agg(content, '|' order by ordinal) as c from messages where session_id = 'c-live'";
    const before = query(target, contentSql)[0]?.c;

    const kept = run(target, '--backup', archive);
    expect(kept.code).toBe(0);
    expect(JSON.parse(kept.stdout).run.counts).toMatchObject({
      sessionsInserted: 1,
      sessionsKeptComplete: 1,
    });
    expect(query(target, contentSql)[0]?.c).toBe(before);

    const replaced = run(target, '--backup', archive, '--backup-may-replace');
    expect(replaced.code).toBe(0);
    expect(JSON.parse(replaced.stdout).run.counts.sessionsReplaced).toBe(1);
    expect(String(query(target, contentSql)[0]?.c)).toContain('older archived text');
  });

  it('a workspace-scoped read of a legacy multi-workspace archive fails with BACKUP_WORKSPACE_SCOPE_METADATA_REQUIRED', () => {
    const archive = writeBackup(join(root, 'legacy.zip'), {
      global: [composer('c-legacy', 'x')],
      workspaces: [
        { id: 'w1', folder: '/home/dev/a', headIds: ['c-legacy'] },
        { id: 'w2', folder: '/home/dev/b', headIds: [] },
      ],
    });
    const result = run(join(root, 'legacy.duckdb'), '--backup', archive, '--workspace', '/home/dev/a');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr).error.code).toBe('BACKUP_WORKSPACE_SCOPE_METADATA_REQUIRED');
  });
});
