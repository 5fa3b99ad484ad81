import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildKitchenSink } from '../../fixtures/composer/kitchen-sink.js';
import { buildMatrixTree, MATRIX } from '../../fixtures/composer/matrix-tree.js';
import { ComposerAdapter } from '../../src/extract/composer/composer-adapter.js';
import { DEFAULT_READ_LIMITS } from '../../src/extract/limits/read-limits.js';
import { DuckDbTarget } from '../../src/load/duckdb/duckdb-target.js';
import { UsageError } from '../../src/shared/errors.js';
import { runPipeline } from '../../src/sync/run-pipeline.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

let userDir: string;
let root: string;
let runs = 0;

function scopedRun(...flags: string[]) {
  runs += 1;
  const warehouse = join(root, `w-${runs}.duckdb`);
  const result = runCli([
    'run',
    '--json',
    '--cursor-user-dir',
    userDir,
    '--target',
    `duckdb:${warehouse}`,
    ...flags,
  ]);
  return { warehouse, result };
}

const instancesOf = (warehouse: string, id: string) =>
  queryRows(
    warehouse,
    `select workspace_path, state, reason_code from source_instances where session_id = '${id}' order by workspace_path`,
  );

beforeAll(() => {
  root = tempDir('etl-scope-');
  userDir = join(root, 'User');
  buildMatrixTree(userDir);
});

describe('--workspace is a membership filter and a payload I/O boundary', () => {
  it('"If a selected UUID has a known off-scope contributor, the result is explicitly partial"', async () => {
    const { warehouse, result } = scopedRun('--workspace', '/work/b');
    expect(result.code).toBe(0);
    const sessions = await queryRows(
      warehouse,
      'select session_id, fidelity, reason_codes from sessions order by 1',
    );
    // Only sessions with a member in /work/b are selected; the global session of /work/a is not read.
    expect(sessions.map((s) => s.session_id)).toEqual([MATRIX.equivalent, MATRIX.divergent]);
    expect(sessions[0]).toMatchObject({
      fidelity: 'partial',
      reason_codes: '["source-unavailable","workspace-scope-omitted"]',
    });
    expect(await instancesOf(warehouse, MATRIX.equivalent)).toEqual([
      { workspace_path: '/work/b', state: 'contributed', reason_code: null },
      { workspace_path: '/work/c', state: 'omitted-by-scope', reason_code: 'workspace-scope-omitted' },
    ]);
    // The off-scope divergent copy is never opened, so no ambiguity can be observed inside the scope.
    const [divergent] = await queryRows(
      warehouse,
      `select * from sessions where session_id = '${MATRIX.divergent}'`,
    );
    expect(divergent).toMatchObject({ resolution_state: 'partial', message_count: 2 });
  });

  it('"--include-cross-workspace-sources" broadens only already selected IDs and discloses every broadened source', async () => {
    const { warehouse, result } = scopedRun('--workspace', 'b', '--include-cross-workspace-sources');
    expect(result.code).toBe(0);
    const ids = (await queryRows(warehouse, 'select session_id from sessions order by 1')).map(
      (r) => r.session_id,
    );
    expect(ids).toEqual([MATRIX.equivalent, MATRIX.divergent]);
    expect(await instancesOf(warehouse, MATRIX.equivalent)).toEqual([
      { workspace_path: '/work/b', state: 'contributed', reason_code: null },
      { workspace_path: '/work/c', state: 'equivalent-replica', reason_code: 'cross-workspace-opt-in' },
    ]);
    const [divergent] = await queryRows(
      warehouse,
      `select * from sessions where session_id = '${MATRIX.divergent}'`,
    );
    expect(divergent).toMatchObject({ resolution_state: 'ambiguous', message_count: 0 });
  });

  it('"No candidate returns an actionable empty result"', async () => {
    const { warehouse, result } = scopedRun('--workspace', '/no/such/workspace');
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.run.counts.sessionsInserted).toBe(0);
    expect(out.run.payloadReads).toBe(0);
    const notFound = out.diagnostics.find((d: { code: string }) => d.code === 'WORKSPACE_NOT_FOUND');
    expect(notFound.details.remedy).toMatch(/--workspace|path/);
    expect(await queryRows(warehouse, 'select * from sessions')).toEqual([]);
  });

  it('"Multiple suffix candidates fail with WORKSPACE_AMBIGUOUS before conversation payload I/O"', async () => {
    const sinkRoot = tempDir('etl-scope-ambiguous-');
    buildKitchenSink(join(sinkRoot, 'User'));
    const hydrate = vi.spyOn(ComposerAdapter.prototype, 'hydrate');
    const target = await DuckDbTarget.open(join(sinkRoot, 'w.duckdb'));
    let thrown: unknown;
    try {
      await runPipeline(
        {
          roots: {
            cursorUserDir: join(sinkRoot, 'User'),
            cursorStoreRoot: null,
            inputs: [],
            backups: [],
            carrier: 'custom',
          },
          limits: DEFAULT_READ_LIMITS,
          sinceLast: false,
          preferredSource: 'composer',
          includeCrossWorkspaceSources: false,
          workspace: 'shared/app',
        },
        target,
      );
    } catch (error) {
      thrown = error;
    } finally {
      await target.close();
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).code).toBe('WORKSPACE_AMBIGUOUS');
    expect(hydrate).not.toHaveBeenCalled();
    hydrate.mockRestore();
  });

  it('WORKSPACE_AMBIGUOUS through the CLI: fatal JSON on stderr, empty stdout', () => {
    const sinkRoot = tempDir('etl-scope-cli-');
    buildKitchenSink(join(sinkRoot, 'User'));
    const result = runCli([
      'run',
      '--json',
      '--cursor-user-dir',
      join(sinkRoot, 'User'),
      '--target',
      `duckdb:${join(sinkRoot, 'w.duckdb')}`,
      '--workspace',
      'shared/app',
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr).error).toMatchObject({
      code: 'WORKSPACE_AMBIGUOUS',
      details: { candidateCount: 2 },
    });
  });
});
