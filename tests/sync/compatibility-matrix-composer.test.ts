import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMatrixTree, MATRIX } from '../../fixtures/composer/matrix-tree.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

type Diag = { code: string; sessionId?: string; details: Record<string, unknown> };

const CARRIERS = [
  {
    name: 'live default path',
    carrier: 'live',
    // HOME/XDG_CONFIG_HOME point at a temp home: discovery finds `.config/Cursor/User` by itself.
    setup(root: string) {
      const userDir = join(root, 'home', '.config', 'Cursor', 'User');
      mkdirSync(userDir, { recursive: true });
      return {
        userDir,
        args: [] as string[],
        env: { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'home', '.config') },
      };
    },
  },
  {
    name: 'custom data path',
    carrier: 'custom',
    setup(root: string) {
      const userDir = join(root, 'custom', 'User');
      return { userDir, args: ['--cursor-user-dir', userDir], env: {} };
    },
  },
] as const;

describe.each(CARRIERS)('Compatibility Matrix v1, Composer cells, $name', ({ carrier, setup }) => {
  let warehouse: string;
  let diagnostics: Diag[];
  let counts: Record<string, number>;
  const session = async (id: string) =>
    (await queryRows(warehouse, `select * from sessions where session_id = '${id}'`))[0]!;
  const instances = (id: string) =>
    queryRows(
      warehouse,
      `select representation, state, carrier, workspace_path, reason_code from source_instances
        where session_id = '${id}' order by workspace_path`,
    );
  const messageCount = async (id: string) =>
    Number(
      (await queryRows(warehouse, `select count(*) as n from messages where session_id = '${id}'`))[0]!.n,
    );

  beforeAll(() => {
    const root = tempDir('etl-matrix-');
    const { userDir, args, env } = setup(root);
    buildMatrixTree(userDir);
    warehouse = join(root, 'w.duckdb');
    const result = runCli(['run', '--json', ...args, '--target', `duckdb:${warehouse}`], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    diagnostics = JSON.parse(result.stdout).diagnostics;
    counts = JSON.parse(result.stdout).run.counts;
  });

  it('run counts agree with the stored rows: sessionsAmbiguous is the ambiguity rows inserted', async () => {
    const stored = await queryRows(
      warehouse,
      `select count(*)::INTEGER as n from sessions where resolution_state = 'ambiguous'`,
    );
    expect(stored[0]!.n).toBeGreaterThan(0);
    expect(counts.sessionsAmbiguous).toBe(stored[0]!.n);
  });

  it('Composer global: complete Composer', async () => {
    expect(await session(MATRIX.global)).toMatchObject({
      source: 'global',
      fidelity: 'complete',
      resolution_state: 'complete',
      resolved_source: 'composer',
      workspace_path: '/work/a',
    });
    expect(await messageCount(MATRIX.global)).toBe(2);
    const rows = await instances(MATRIX.global);
    expect(rows.find((r) => r.representation === 'composer-global')).toMatchObject({
      state: 'contributed',
      carrier,
    });
  });

  it('Composer workspace fallback: degraded Composer fallback', async () => {
    expect(await session(MATRIX.fallback)).toMatchObject({
      source: 'workspace-fallback',
      fidelity: 'partial',
      resolution_state: 'partial',
      workspace_path: '/work/a',
    });
    expect(await messageCount(MATRIX.fallback)).toBe(1);
    expect(await instances(MATRIX.fallback)).toEqual([
      {
        representation: 'composer-workspace',
        state: 'contributed',
        carrier,
        workspace_path: '/work/a',
        reason_code: null,
      },
    ]);
  });

  it('Equivalent same-role Composer replicas: one reconciled logical row', async () => {
    expect(await session(MATRIX.equivalent)).toMatchObject({ resolution_state: 'partial', message_count: 2 });
    expect((await instances(MATRIX.equivalent)).map((r) => [r.workspace_path, r.state])).toEqual([
      ['/work/b', 'contributed'],
      ['/work/c', 'equivalent-replica'],
    ]);
  });

  it('Divergent same-role Composer replicas: one unresolved ambiguity row', async () => {
    expect(await session(MATRIX.divergent)).toMatchObject({
      resolution_state: 'ambiguous',
      message_count: 0,
      fidelity: 'partial',
    });
    expect(await messageCount(MATRIX.divergent)).toBe(0);
    const diag = diagnostics.find((d) => d.code === 'REPLICA_DIVERGENT' && d.sessionId === MATRIX.divergent);
    expect(diag?.details).toMatchObject({ occurrenceCount: 2 });
    const refs = (diag?.details.occurrenceRefs ?? []) as string[];
    expect(refs.every((ref) => /^occ:[0-9a-f]{32}$/.test(ref))).toBe(true);
  });
});

describe('Automatic selection or union of divergent replicas', () => {
  it('is rejected: a divergent copy never replaces, extends or merges into the archived session', async () => {
    const root = tempDir('etl-matrix-reject-');
    const userDir = join(root, 'User');
    const warehouse = join(root, 'w.duckdb');
    const run = () =>
      runCli(['run', '--json', '--cursor-user-dir', userDir, '--target', `duckdb:${warehouse}`]);
    buildMatrixTree(userDir, { secondDivergentCopy: false });
    expect(run().code).toBe(0);
    const before = await queryRows(
      warehouse,
      `select message_id, content from messages where session_id = '${MATRIX.divergent}' order by ordinal`,
    );
    expect(before.map((r) => r.content)).toEqual(['Add a sidebar', 'Here is a plan']);

    buildMatrixTree(join(root, 'next', 'User'));
    const second = runCli([
      'run',
      '--json',
      '--cursor-user-dir',
      join(root, 'next', 'User'),
      '--target',
      `duckdb:${warehouse}`,
    ]);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).run.counts.sessionsAmbiguous).toBe(1);
    const after = await queryRows(
      warehouse,
      `select message_id, content from messages where session_id = '${MATRIX.divergent}' order by ordinal`,
    );
    expect(after).toEqual(before);
    const union = await queryRows(
      warehouse,
      "select count(*) as n from messages where content like '%edited later%'",
    );
    expect(Number(union[0]!.n)).toBe(0);
  });
});
