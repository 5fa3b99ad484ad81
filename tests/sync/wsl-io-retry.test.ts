import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSampleCorpus, SAMPLE_COMPOSERS } from '../../fixtures/sample/sample-corpus.js';
import { DEFAULT_READ_LIMITS } from '../../src/extract/limits/read-limits.js';
import { targetOpener } from '../../src/load/open-target.js';
import { runPipeline } from '../../src/sync/run-pipeline.js';
import type { RunSummary } from '../../src/sync/run-state.js';
import { queryRows } from '../helpers/query-warehouse.js';
import { tempDir } from '../helpers/run-cli.js';

/** The source file whose read-only opens fail as WSL's `/mnt/c` does under load. */
const failing = vi.hoisted(() => ({ path: null as string | null, opens: 0 }));

vi.mock('../../src/extract/sqlite/sqlite-driver.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/extract/sqlite/sqlite-driver.js')>();
  const Database = new Proxy(real.Database, {
    construct(target, args: [string, { readonly?: boolean }?]) {
      if (failing.path !== null && args[0] === failing.path && args[1]?.readonly === true) {
        failing.opens++;
        throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_SHORT_READ' });
      }
      return Reflect.construct(target, args);
    },
  });
  return { ...real, Database };
});

async function load(userDir: string, storeRoot: string, warehouse: string): Promise<RunSummary> {
  const target = await (await targetOpener({ kind: 'duckdb', path: warehouse }))();
  try {
    return await runPipeline(
      {
        roots: {
          cursorUserDir: userDir,
          cursorStoreRoot: storeRoot,
          inputs: [],
          backups: [],
          carrier: 'live',
        },
        limits: DEFAULT_READ_LIMITS,
        sinceLast: false,
        preferredSource: 'composer',
        includeCrossWorkspaceSources: false,
      },
      target,
    );
  } finally {
    await target.close();
  }
}

describe('a whole run over a global DB whose opens fail with an I/O error', () => {
  let healthy: string;
  let retried: string;
  let summary: RunSummary;
  beforeAll(async () => {
    const dir = tempDir('wsl-io-retry-');
    const sample = buildSampleCorpus(join(dir, 'cursor'));
    healthy = join(dir, 'healthy.duckdb');
    retried = join(dir, 'retried.duckdb');
    await load(sample.userDir, sample.storeRoot, healthy);
    failing.path = join(sample.userDir, 'globalStorage', 'state.vscdb');
    try {
      summary = await load(sample.userDir, sample.storeRoot, retried);
    } finally {
      failing.path = null;
    }
  }, 60_000);

  it('loads every session from the snapshot copy, with no SOURCE_UNREADABLE', async () => {
    expect(failing.opens).toBeGreaterThan(0);
    expect(summary.diagnostics.map((d) => d.code)).not.toContain('SOURCE_UNREADABLE');
    const sessions = 'SELECT session_id, title, message_count, fidelity FROM sessions ORDER BY session_id';
    const messages = 'SELECT message_id, role, content FROM messages ORDER BY session_id, ordinal';
    const loaded = await queryRows(retried, sessions);
    expect(loaded.map((s) => s.session_id)).toEqual(
      expect.arrayContaining(SAMPLE_COMPOSERS.map((c) => c.id)),
    );
    expect(loaded).toEqual(await queryRows(healthy, sessions));
    expect(await queryRows(retried, messages)).toEqual(await queryRows(healthy, messages));
  });
});
