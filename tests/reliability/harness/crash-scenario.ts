/**
 * The crash scenario, on either target: an archive of the healthy corpus, then a run over the
 * evolved corpus (every session replaced) killed at one fault point. Per-session checksums of both
 * versions tell an old session, a new one and a mixed one apart.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { writeComposer } from '../../../fixtures/composer/composer-session.js';
import { StateDbBuilder } from '../../../fixtures/composer/state-db-builder.js';
import {
  BASELINE_SESSION_IDS,
  globalDbPath,
  userDirUnder,
  writeBaselineGlobalDb,
  writeEvolvedGlobalDb,
} from '../../../fixtures/hostile/baseline-corpus.js';
import { bucketOf } from '../../../src/load/parquet/dataset-layout.js';
import { tempDir } from '../../helpers/run-cli.js';
import { runEtlInProcess } from './etl-in-process.js';
import { preloadPath, runEtl } from './etl-process.js';
import { sessionsChecksum } from './warehouse-probe.js';

export const FAULT_POINTS = preloadPath('fault-points');

export type TargetKind = 'duckdb' | 'parquet';

export interface CrashScenario {
  kind: TargetKind;
  root: string;
  oldUserDir: string;
  newUserDir: string;
  /** The archive of the healthy corpus (a DuckDB file or a dataset directory) every attempt copies. */
  oldTarget: string;
  oldSums: Map<string, string>;
  newSums: Map<string, string>;
  /** Checksum of every session after a clean run over the evolved corpus. */
  cleanChecksum: string;
  /** Labels of the fault points a clean run reaches, in order. */
  points: string[];
}

/** One session, in a Parquet bucket no baseline session uses, in its own Cursor user directory. */
function writeOtherGlobalDb(userDir: string): void {
  const used = new Set(BASELINE_SESSION_IDS.map(bucketOf));
  let n = 0;
  while (used.has(bucketOf(otherId(n)))) n++;
  const db = new StateDbBuilder(globalDbPath(userDir));
  writeComposer(db, {
    id: otherId(n),
    name: 'Archived from another machine',
    bubbles: [{ id: 'b-other-1', role: 'user', text: 'An older question.' }],
  });
  db.close();
}

const otherId = (n: number): string => `0e4e0000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Moves every published state of a dataset `byMs` into the past (the manifests' publication times). */
function ageStates(dir: string, byMs: number): void {
  for (const id of readdirSync(join(dir, 'states'))) {
    const file = join(dir, 'states', id, 'manifest.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    manifest.publishedAtMs -= byMs;
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  }
}

/** `etl run --json` over `userDir` into `target` (a `duckdb:`/`parquet:` spec). */
export function runArgs(userDir: string, target: string): string[] {
  return ['run', '--json', '--cursor-user-dir', userDir, '--target', target];
}

/** A fresh copy of the scenario's old archive under `name`; returns its target spec. */
export function copyOfOld(scenario: CrashScenario, name: string): string {
  const path = join(scenario.root, scenario.kind === 'duckdb' ? `${name}.duckdb` : name);
  cpSync(scenario.oldTarget, path, { recursive: true });
  return `${scenario.kind}:${path}`;
}

/** The fault-point preload's environment for a run into `target` (file system points under it). */
export function faultEnv(target: string, env: Record<string, string>): Record<string, string> {
  return { ...env, ETL_FAULT_FS_ROOT: target.slice(target.indexOf(':') + 1) };
}

export async function perSessionSums(target: string): Promise<Map<string, string>> {
  const sums = new Map<string, string>();
  for (const id of BASELINE_SESSION_IDS) sums.set(id, await sessionsChecksum(target, [id]));
  return sums;
}

/** Each archived session as wholly `old`, wholly `new`, or `mixed`. */
export async function sessionStates(scenario: CrashScenario, target: string): Promise<string[]> {
  const sums = await perSessionSums(target);
  return BASELINE_SESSION_IDS.map((id) =>
    sums.get(id) === scenario.oldSums.get(id)
      ? 'old'
      : sums.get(id) === scenario.newSums.get(id)
        ? 'new'
        : 'mixed',
  );
}

export async function buildCrashScenario(kind: TargetKind = 'duckdb'): Promise<CrashScenario> {
  const root = tempDir(`etl-crash-${kind}-`);
  const oldUserDir = userDirUnder(join(root, 'old'));
  const newUserDir = userDirUnder(join(root, 'new'));
  writeBaselineGlobalDb(oldUserDir).close();
  writeEvolvedGlobalDb(newUserDir).close();
  const oldTarget = join(root, kind === 'duckdb' ? 'old.duckdb' : 'old');
  const oldSpec = `${kind}:${oldTarget}`;
  // A session from other roots stays archived and untouched, so a publication also hard-links files.
  const otherUserDir = userDirUnder(join(root, 'other'));
  writeOtherGlobalDb(otherUserDir);
  expect((await runEtlInProcess(runArgs(otherUserDir, oldSpec), join(root, 'tmp'))).code).toBe(0);
  // A dataset gets three states superseded a day ago, so a publication also collects old states (GC).
  for (let i = 0; i < (kind === 'parquet' ? 4 : 1); i++)
    expect((await runEtlInProcess(runArgs(oldUserDir, oldSpec), join(root, 'tmp'))).code).toBe(0);
  if (kind === 'parquet') ageStates(oldTarget, 24 * 60 * 60 * 1000);
  const partial: CrashScenario = {
    kind,
    root,
    oldUserDir,
    newUserDir,
    oldTarget,
    oldSums: await perSessionSums(oldSpec),
    newSums: new Map(),
    cleanChecksum: '',
    points: [],
  };
  const clean = copyOfOld(partial, 'clean');
  const log = join(root, 'points.log');
  const counted = runEtl(runArgs(newUserDir, clean), {
    tmpDir: join(root, 'tmp'),
    preloads: [FAULT_POINTS],
    env: faultEnv(clean, { ETL_FAULT_LOG: log }),
    timeoutMs: 120_000,
  });
  expect(counted.code).toBe(0);
  expect(JSON.parse(counted.stdout).run.counts.sessionsReplaced).toBe(BASELINE_SESSION_IDS.length);
  return {
    ...partial,
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
