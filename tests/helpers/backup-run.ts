/** In-process runs over backup archives for the backup tests (the CLI is covered by the matrix tests). */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import type { FixtureComposer } from '../../fixtures/composer/composer-session.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from '../../src/extract/limits/read-limits.js';
import { runQuery, withReadOnlyWarehouse } from '../../src/load/duckdb/read-only-query.js';
import { targetOpener } from '../../src/load/open-target.js';
import { runPipeline } from '../../src/sync/run-pipeline.js';
import type { RunSummary } from '../../src/sync/run-state.js';
import { tempDir } from './run-cli.js';

export interface BackupRunOptions {
  userDir?: string | null;
  limits?: Partial<ReadLimits>;
  backupMayReplace?: boolean;
  workspace?: string;
}

export async function runBackups(
  backups: readonly string[],
  warehouse: string,
  options: BackupRunOptions = {},
): Promise<RunSummary> {
  const target = await (await targetOpener({ kind: 'duckdb', path: warehouse }))();
  try {
    return await runPipeline(
      {
        roots: {
          cursorUserDir: options.userDir ?? null,
          cursorStoreRoot: null,
          inputs: [],
          backups,
          carrier: options.userDir ? 'live' : 'custom',
        },
        limits: { ...DEFAULT_READ_LIMITS, ...options.limits },
        sinceLast: false,
        preferredSource: 'composer',
        includeCrossWorkspaceSources: false,
        backupMayReplace: options.backupMayReplace ?? false,
        workspace: options.workspace ?? null,
      },
      target,
    );
  } finally {
    await target.close();
  }
}

export async function queryRows(warehouse: string, sql: string): Promise<Record<string, unknown>[]> {
  return withReadOnlyWarehouse(warehouse, async (connection) => (await runQuery(connection, sql)).rows);
}

/** Private temp workspaces left in a directory (the runs' TMPDIR). */
export function tempResidue(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('cursor-etl-'));
}

/** A two-message Composer session whose texts name it. */
export function twoMessageComposer(id: string): FixtureComposer {
  return {
    id,
    name: `t ${id}`,
    createdAt: 1_750_000_000_000,
    bubbles: [
      { id: `${id}-1`, role: 'user', text: `question ${id}` },
      { id: `${id}-2`, role: 'assistant', text: `answer ${id}` },
    ],
  };
}

/** A fresh directory that is also the runs' TMPDIR for this test file, so residue is observable. */
export function isolatedTmpdir(prefix: string): { path: string } {
  const dir = { path: '' };
  let previous: string | undefined;
  beforeAll(() => {
    dir.path = tempDir(prefix);
    previous = process.env.TMPDIR;
    process.env.TMPDIR = dir.path;
  });
  afterAll(() => {
    process.env.TMPDIR = previous;
  });
  return dir;
}
