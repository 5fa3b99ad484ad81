import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeComposer } from '../../../fixtures/composer/composer-session.js';
import { json, StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import { headIndex, writeWorkspace } from '../../../fixtures/composer/workspace-db-builder.js';
import { queryRows } from '../../helpers/query-warehouse.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';

const WITH_FALLBACK = 'b1000000-0000-4000-8000-000000000001';
const ALONE = 'b1000000-0000-4000-8000-000000000002';
const SMALL = 'b1000000-0000-4000-8000-000000000003';
const BIG_TEXT = 'x'.repeat(5_000);

let warehouse: string;
let result: ReturnType<typeof runCli>;

beforeAll(() => {
  const root = tempDir('etl-limits-');
  const userDir = join(root, 'User');
  const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
  for (const id of [WITH_FALLBACK, ALONE, SMALL])
    writeComposer(db, {
      id,
      name: 'limits',
      createdAt: 1_700_000_000_000,
      bubbles: [
        { id: `${id}-1`, role: 'user', text: 'short' },
        { id: `${id}-2`, role: 'assistant', text: id === SMALL ? 'short' : BIG_TEXT },
      ],
    });
  db.close();
  writeWorkspace(userDir, {
    storageId: 'ws-limits',
    workspaceJson: { folder: 'file:///work/limits' },
    composerIndex: headIndex([{ id: WITH_FALLBACK, name: 'Has a fallback', createdAt: 1_700_000_000_000 }]),
  });
  warehouse = join(root, 'w.duckdb');
  result = runCli([
    'run',
    '--json',
    '--cursor-user-dir',
    userDir,
    '--target',
    `duckdb:${warehouse}`,
    '--source-limit',
    'sqliteValueBytes=4KiB',
  ]);
});

describe('Source Read Limits v1 outcomes for Composer sessions', () => {
  it('"A limit failure never silently truncates": without a safe contributor the run exits 4 with fatal JSON on stderr', () => {
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    const { error } = JSON.parse(result.stderr);
    expect(error.code).toBe('SOURCE_LIMIT_EXCEEDED');
    expect(error.details).toMatchObject({
      policyVersion: 'source-read-limits/v1',
      bound: 'sqliteValueBytes',
      limit: 4096,
      unit: 'bytes',
      outcome: 'fatal',
      retryableWithOverride: true,
    });
    expect(error.details.observedAtLeast).toBeGreaterThan(4096);
  });

  it('the unreadable session is not loaded (never a shorter session); the others are committed', async () => {
    const sessions = await queryRows(
      warehouse,
      'select session_id, source, fidelity, message_count from sessions order by 1',
    );
    expect(sessions.map((s) => s.session_id)).toEqual([WITH_FALLBACK, SMALL]);
    const errors = await queryRows(
      warehouse,
      `select code, severity, session_id from diagnostics where severity = 'error'`,
    );
    expect(errors).toEqual([{ code: 'SOURCE_LIMIT_EXCEEDED', severity: 'error', session_id: ALONE }]);
  });

  it('"an actionable partial result only when another documented safe contributor remains"', async () => {
    const [row] = await queryRows(warehouse, `select * from sessions where session_id = '${WITH_FALLBACK}'`);
    expect(row).toMatchObject({ source: 'workspace-fallback', fidelity: 'partial' });
    expect(JSON.parse(String(row!.reason_codes))).toContain('source-read-failed');
    const instances = await queryRows(
      warehouse,
      `select representation, state, reason_code from source_instances where session_id = '${WITH_FALLBACK}' order by 1`,
    );
    expect(instances).toEqual([
      { representation: 'composer-global', state: 'failed', reason_code: 'source-read-failed' },
      { representation: 'composer-workspace', state: 'contributed', reason_code: null },
    ]);
    const partial = await queryRows(
      warehouse,
      `select details from diagnostics where code = 'SOURCE_LIMIT_EXCEEDED' and session_id = '${WITH_FALLBACK}'`,
    );
    expect(JSON.parse(String(partial[0]!.details))).toMatchObject({
      outcome: 'partial',
      bound: 'sqliteValueBytes',
    });
  });
});

describe('a composerData value past the bound', () => {
  const LARGE_DOC = 'b2000000-0000-4000-8000-000000000001';
  const PLAIN = 'b2000000-0000-4000-8000-000000000002';
  let userDir: string;
  let docWarehouse: string;
  let args: string[];
  let full: ReturnType<typeof runCli>;

  beforeAll(() => {
    const root = tempDir('etl-doc-limit-');
    userDir = join(root, 'User');
    const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
    for (const id of [LARGE_DOC, PLAIN])
      writeComposer(db, {
        id,
        name: id === LARGE_DOC ? 'n'.repeat(6_000) : 'plain',
        createdAt: 1_700_000_000_000,
        bubbles: [
          { id: `${id}-1`, role: 'user', text: 'short' },
          { id: `${id}-2`, role: 'assistant', text: 'short' },
        ],
      });
    db.close();
    args = ['run', '--json', '--cursor-user-dir', userDir, '--source-limit', 'sqliteValueBytes=4KiB'];
    docWarehouse = join(root, 'w.duckdb');
    full = runCli([...args, '--target', `duckdb:${docWarehouse}`]);
  });

  it('"A limit failure never silently truncates": only its session fails; the other sessions of the DB are committed', async () => {
    expect(full.code).toBe(4);
    expect(JSON.parse(full.stderr).error).toMatchObject({
      code: 'SOURCE_LIMIT_EXCEEDED',
      details: { bound: 'sqliteValueBytes', outcome: 'fatal' },
    });
    const sessions = await queryRows(docWarehouse, 'select session_id, message_count from sessions');
    expect(sessions).toEqual([{ session_id: PLAIN, message_count: 2 }]);
    const errors = await queryRows(
      docWarehouse,
      `select session_id from diagnostics where severity = 'error'`,
    );
    expect(errors).toEqual([{ session_id: LARGE_DOC }]);
  });

  it('--since-last then reads a grown session of the same DB', async () => {
    const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
    db.bubble(PLAIN, `${PLAIN}-3`, { json: { _v: 3, bubbleId: `${PLAIN}-3`, type: 1, text: 'more' } });
    db.close();
    const incremental = runCli([...args, '--since-last', '--target', `duckdb:${docWarehouse}`]);
    expect(incremental.code).toBe(4);
    const sessions = await queryRows(docWarehouse, 'select session_id, message_count from sessions');
    expect(sessions).toEqual([{ session_id: PLAIN, message_count: 3 }]);
  });
});

describe('an index past the bound, with the sessions still in the global DB', () => {
  const IDS = ['b3000000-0000-4000-8000-000000000001', 'b3000000-0000-4000-8000-000000000002'];
  const LONG_NAME = 'n'.repeat(3_000);

  /** Two small sessions, `addIndex` writing the oversized index; the full run's result and warehouse. */
  function runWith(addIndex: (userDir: string, db: StateDbBuilder) => void) {
    const root = tempDir('etl-index-limit-');
    const userDir = join(root, 'User');
    const db = new StateDbBuilder(join(userDir, 'globalStorage', 'state.vscdb'));
    for (const id of IDS)
      writeComposer(db, {
        id,
        name: 'plain',
        createdAt: 1_700_000_000_000,
        bubbles: [{ id: `${id}-1`, role: 'user', text: 'short' }],
      });
    addIndex(userDir, db);
    db.close();
    const target = join(root, 'w.duckdb');
    const args = ['run', '--json', '--cursor-user-dir', userDir, '--target', `duckdb:${target}`];
    return { result: runCli([...args, '--source-limit', 'sqliteValueBytes=4KiB']), target };
  }

  async function expectPartialSuccess({ result, target }: ReturnType<typeof runWith>): Promise<void> {
    expect(result.code).toBe(0);
    const limited = JSON.parse(result.stdout).diagnostics.filter(
      (d: { code: string }) => d.code === 'SOURCE_LIMIT_EXCEEDED',
    );
    expect(limited).toHaveLength(1);
    expect(limited[0]).toMatchObject({
      severity: 'warning',
      sourceRef: expect.stringMatching(/^src:/),
      details: { bound: 'sqliteValueBytes', limit: 4096, outcome: 'partial' },
    });
    const sessions = await queryRows(target, 'select session_id, fidelity from sessions order by 1');
    expect(sessions).toEqual(IDS.map((session_id) => ({ session_id, fidelity: 'complete' })));
  }

  it('"an actionable partial result only when another documented safe contributor remains": the global composerHeaders index', async () => {
    await expectPartialSuccess(
      runWith((_userDir, db) =>
        db.item(
          'composer.composerHeaders',
          json({ allComposers: IDS.map((composerId) => ({ composerId, name: LONG_NAME })) }),
        ),
      ),
    );
  });

  it('"an actionable partial result only when another documented safe contributor remains": a workspace composer index', async () => {
    await expectPartialSuccess(
      runWith((userDir) =>
        writeWorkspace(userDir, {
          storageId: 'ws-index-limit',
          workspaceJson: { folder: 'file:///work/index-limit' },
          composerIndex: headIndex(IDS.map((id) => ({ id, name: LONG_NAME, createdAt: 1_700_000_000_000 }))),
        }),
      ),
    );
  });
});
