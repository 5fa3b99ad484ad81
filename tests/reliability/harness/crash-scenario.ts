/**
 * The crash scenario: an archive of the healthy corpus, then a run over the evolved corpus (every
 * session replaced) killed at one fault point. Per-session checksums of both versions tell an old
 * session, a new one and a mixed one apart.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import {
  BASELINE_SESSION_IDS,
  userDirUnder,
  writeBaselineGlobalDb,
  writeEvolvedGlobalDb,
} from '../../../fixtures/hostile/baseline-corpus.js';
import { tempDir } from '../../helpers/run-cli.js';
import { runEtlInProcess } from './etl-in-process.js';
import { preloadPath, runEtl } from './etl-process.js';
import { sessionsChecksum } from './warehouse-probe.js';

export const FAULT_POINTS = preloadPath('fault-points');

export interface CrashScenario {
  root: string;
  oldUserDir: string;
  newUserDir: string;
  /** The archive of the healthy corpus every attempt starts from. */
  oldWarehouse: string;
  oldSums: Map<string, string>;
  newSums: Map<string, string>;
  /** Checksum of every session after a clean run over the evolved corpus. */
  cleanChecksum: string;
  /** Labels of the fault points a clean run reaches, in order. */
  points: string[];
}

export function runArgs(userDir: string, warehouse: string): string[] {
  return ['run', '--json', '--cursor-user-dir', userDir, '--target', `duckdb:${warehouse}`];
}

export async function perSessionSums(warehouse: string): Promise<Map<string, string>> {
  const sums = new Map<string, string>();
  for (const id of BASELINE_SESSION_IDS) sums.set(id, await sessionsChecksum(warehouse, [id]));
  return sums;
}

export async function buildCrashScenario(): Promise<CrashScenario> {
  const root = tempDir('etl-crash-');
  const oldUserDir = userDirUnder(join(root, 'old'));
  const newUserDir = userDirUnder(join(root, 'new'));
  writeBaselineGlobalDb(oldUserDir).close();
  writeEvolvedGlobalDb(newUserDir).close();
  const oldWarehouse = join(root, 'old.duckdb');
  expect((await runEtlInProcess(runArgs(oldUserDir, oldWarehouse), join(root, 'tmp'))).code).toBe(0);
  const clean = join(root, 'clean.duckdb');
  copyFileSync(oldWarehouse, clean);
  const log = join(root, 'points.log');
  const counted = runEtl(runArgs(newUserDir, clean), {
    tmpDir: join(root, 'tmp'),
    preloads: [FAULT_POINTS],
    env: { ETL_FAULT_LOG: log },
    timeoutMs: 120_000,
  });
  expect(counted.code).toBe(0);
  expect(JSON.parse(counted.stdout).run.counts.sessionsReplaced).toBe(BASELINE_SESSION_IDS.length);
  return {
    root,
    oldUserDir,
    newUserDir,
    oldWarehouse,
    oldSums: await perSessionSums(oldWarehouse),
    newSums: await perSessionSums(clean),
    cleanChecksum: await sessionsChecksum(clean, BASELINE_SESSION_IDS),
    points: readFileSync(log, 'utf8').trim().split('\n'),
  };
}

/** `count` fault-point numbers (1-based) spread evenly, always including the first of every label. */
export function spreadPoints(labels: readonly string[], count: number): number[] {
  const chosen = new Set<number>();
  const seen = new Set<string>();
  labels.forEach((label, i) => {
    if (!seen.has(label)) chosen.add(i + 1);
    seen.add(label);
  });
  const step = labels.length / count;
  for (let k = 0; chosen.size < Math.min(count, labels.length); k++)
    chosen.add((Math.floor(k * step) % labels.length) + 1);
  return [...chosen].sort((a, b) => a - b);
}
