/**
 * The `--since-last` convergence check: a warehouse kept by `--since-last` after each generated
 * source change must hold what a fresh full load of the same sources holds (ledger aside; sessions
 * no source holds any more stay archived, flagged absent, and are left out of the comparison).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { SeededRandom } from '../../fixtures/bench/seeded-random.js';
import {
  applySourceChange,
  buildSourceWorld,
  randomChanges,
  type SourceChange,
  type SourceWorld,
} from '../../fixtures/sync/source-world.js';
import { CONTENT_TABLES } from '../../schemas/tables.js';
import { DEFAULT_READ_LIMITS } from '../../src/extract/limits/read-limits.js';
import { targetOpener } from '../../src/load/open-target.js';
import { runPipeline } from '../../src/sync/run-pipeline.js';
import type { RunSummary } from '../../src/sync/run-state.js';
import { tempDir } from './run-cli.js';

/** Every table whose rows a run writes per session, derived facts (usage, file edits) included. */
const COMPARED_TABLES = CONTENT_TABLES.map((table) => table.name);

/** Cursor roots (and optional captures and backups) for one in-process run. */
export interface InProcessSources {
  userDir: string;
  storeRoot: string;
  inputs?: string[];
  backups?: string[];
}

/** One `etl run` in process into the warehouse at `warehouse` (DuckDB unless told), with the default settings. */
export async function runInProcess(
  sources: InProcessSources,
  warehouse: string,
  sinceLast: boolean,
  kind: 'duckdb' | 'parquet' = 'duckdb',
): Promise<RunSummary> {
  const target = await (await targetOpener({ kind, path: warehouse }))();
  try {
    return await runPipeline(
      {
        roots: {
          cursorUserDir: sources.userDir,
          cursorStoreRoot: sources.storeRoot,
          inputs: sources.inputs ?? [],
          backups: sources.backups ?? [],
          carrier: 'custom',
        },
        limits: DEFAULT_READ_LIMITS,
        sinceLast,
        preferredSource: 'composer',
        includeCrossWorkspaceSources: false,
      },
      target,
    );
  } finally {
    await target.close();
  }
}

export const runWorld = (world: SourceWorld, warehouse: string, sinceLast: boolean): Promise<RunSummary> =>
  runInProcess({ ...world, inputs: [world.capture], backups: [world.backup] }, warehouse, sinceLast);

/** Per present session of each warehouse, one digest of its rows in every content table. */
export async function archivedStates(warehouses: readonly string[]): Promise<Record<string, string>[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const states: Record<string, string>[] = [];
    for (const [i, path] of warehouses.entries()) {
      await connection.run(`ATTACH '${path.replaceAll("'", "''")}' AS w${i} (READ_ONLY)`);
      const digests = new Map<string, ReturnType<typeof createHash>>();
      for (const table of COMPARED_TABLES) {
        const reader = await connection.runAndReadAll(
          `SELECT t::VARCHAR AS r, t.session_id AS id FROM w${i}.${table} t
            WHERE t.session_id IN (SELECT session_id FROM w${i}.etl_session_state WHERE present_in_source)
            ORDER BY 1`,
        );
        for (const row of reader.getRowObjects()) {
          const id = String(row.id);
          if (!digests.has(id)) digests.set(id, createHash('sha256'));
          digests.get(id)!.update(`${table}\u0000${String(row.r)}\n`);
        }
      }
      states.push(Object.fromEntries([...digests].sort().map(([id, hash]) => [id, hash.digest('hex')])));
    }
    return states;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

export interface Divergence {
  step: number;
  applied: string[];
  differ: string[];
  missing: string[];
  extra: string[];
}

/**
 * Builds a world, loads it, then applies `changes` one at a time with a `--since-last` run after
 * each, comparing with a fresh full load after each run; returns the first divergence or null.
 */
export async function checkConvergence(
  seed: number,
  changes: readonly SourceChange[],
): Promise<Divergence | null> {
  const dir = tempDir('etl-converge-');
  const world = buildSourceWorld(join(dir, 'sources'));
  const random = new SeededRandom(seed);
  const warehouse = join(dir, 'incremental.duckdb');
  await runWorld(world, warehouse, false);
  const applied: string[] = [];
  for (const [step, change] of changes.entries()) {
    applied.push(applySourceChange(world, change, random));
    await runWorld(world, warehouse, true);
    const fresh = join(dir, `full-${step}.duckdb`);
    await runWorld(world, fresh, false);
    const [kept, full] = (await archivedStates([warehouse, fresh])) as [
      Record<string, string>,
      Record<string, string>,
    ];
    const differ = Object.keys(full).filter((id) => id in kept && kept[id] !== full[id]);
    const missing = Object.keys(full).filter((id) => !(id in kept));
    const extra = Object.keys(kept).filter((id) => !(id in full));
    if (differ.length + missing.length + extra.length > 0) return { step, applied, differ, missing, extra };
  }
  return null;
}

/** The sequence a seed generates. */
export function changesForSeed(seed: number, length: number): SourceChange[] {
  return randomChanges(new SeededRandom(seed ^ 0x5eed), length);
}
