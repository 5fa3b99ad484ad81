/**
 * Runs one hostile case against a copy of the healthy archive and checks the suite's invariants:
 * bounded time, a contract exit category without a stack trace, the expected typed code, no
 * canary in any output, no temp residue, and archived sessions byte-for-byte unchanged.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import {
  BASELINE_SESSION_IDS,
  userDirUnder,
  writeBaselineGlobalDb,
} from '../../../fixtures/hostile/baseline-corpus.js';
import {
  backupUnder,
  capturesUnder,
  storeRootUnder,
  writeBaselineBackup,
  writeBaselineCaptures,
  writeBaselineStore,
} from '../../../fixtures/hostile/baseline-sources.js';
import { canariesIn } from '../../../fixtures/hostile/canaries.js';
import type { Expectation, HostileCase } from '../../../fixtures/hostile/hostile-case.js';
import { runQuery, withReadOnlyWarehouse } from '../../../src/load/duckdb/read-only-query.js';
import { tempDir } from '../../helpers/run-cli.js';
import { runEtlInProcess } from './etl-in-process.js';
import {
  type EtlResult,
  EXIT_CATEGORIES,
  fatalCode,
  runEtl,
  STACK_TRACE,
  tempResidue,
} from './etl-process.js';
import { startPausedRun } from './paused-run.js';
import { probeWarehouse, sessionsChecksum } from './warehouse-probe.js';

export interface HealthyArchive {
  /** Every case is built at this same root, so source keys match the archived ones. */
  caseRoot: string;
  warehouse: string;
  /** Every session of the healthy archive, of every source kind. */
  sessionIds: readonly string[];
  checksum: string;
}

async function archivedSessionIds(warehouse: string): Promise<string[]> {
  return withReadOnlyWarehouse(warehouse, async (connection) =>
    (await runQuery(connection, 'SELECT session_id FROM sessions ORDER BY session_id')).rows.map((row) =>
      String(row.session_id),
    ),
  );
}

/** Sessions archived from the healthy sources: Composer's, 2 Store, 3 captures, 1 backed up. */
const HEALTHY_SESSIONS = BASELINE_SESSION_IDS.length + 6;

/** Loads the healthy sources of every kind once; every case starts from a copy of this warehouse. */
export async function buildHealthyArchive(): Promise<HealthyArchive> {
  const root = tempDir('etl-hostile-base-');
  const caseRoot = join(root, 'case');
  const userDir = userDirUnder(caseRoot);
  writeBaselineGlobalDb(userDir).close();
  writeBaselineStore(storeRootUnder(caseRoot));
  writeBaselineCaptures(capturesUnder(caseRoot));
  writeBaselineBackup(backupUnder(caseRoot));
  const warehouse = join(root, 'healthy.duckdb');
  const result = await runEtlInProcess(
    [
      'run',
      '--json',
      '--cursor-user-dir',
      userDir,
      '--cursor-store-root',
      storeRootUnder(caseRoot),
      '--input',
      capturesUnder(caseRoot),
      '--backup',
      backupUnder(caseRoot),
      '--target',
      `duckdb:${warehouse}`,
    ],
    join(root, 'tmp'),
  );
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout).diagnostics).toEqual([]);
  const sessionIds = await archivedSessionIds(warehouse);
  expect(sessionIds.length).toBe(HEALTHY_SESSIONS);
  return { caseRoot, warehouse, sessionIds, checksum: await sessionsChecksum(warehouse, sessionIds) };
}

export async function runHostileCase(
  hostile: HostileCase,
  healthy: HealthyArchive,
  mode: RunMode,
): Promise<EtlResult> {
  const root = healthy.caseRoot;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  hostile.build(root);
  const scratch = tempDir('etl-hostile-');
  const warehouse = join(scratch, 'warehouse.duckdb');
  copyFileSync(healthy.warehouse, warehouse);
  const tmp = join(scratch, 'tmp');
  const args = [
    'run',
    '--json',
    ...(hostile.sources?.(root) ?? ['--cursor-user-dir', userDirUnder(root)]),
    '--target',
    `duckdb:${warehouse}`,
    ...(hostile.sourceLimits ?? []).flatMap((limit) => ['--source-limit', limit]),
  ];
  const result = await runIn(mode, hostile, args, { root, scratch, tmp });
  const label = hostile.name;
  expect({ label, timedOut: result.timedOut, signal: result.signal }).toEqual({
    label,
    timedOut: false,
    signal: null,
  });
  expect(EXIT_CATEGORIES).toContain(result.code);
  expect({ label, stack: STACK_TRACE.test(result.stderr) }).toEqual({ label, stack: false });
  expect({ label, leaked: canariesIn(result.stdout + result.stderr) }).toEqual({ label, leaked: [] });
  expect({ label, outcome: outcomeOf(result, hostile.expect) }).toEqual({ label, outcome: hostile.expect });
  expect({ label, residue: tempResidue(tmp) }).toEqual({ label, residue: [] });
  const probe = await probeWarehouse(warehouse, healthy.sessionIds);
  expect({ label, archived: probe.checksum }).toEqual({ label, archived: healthy.checksum });
  expect({ label, problems: probe.report.problems }).toEqual({ label, problems: [] });
  // A failed case keeps its scratch dir for inspection; a passed one leaves nothing behind.
  rmSync(scratch, { recursive: true, force: true });
  return result;
}

type Outcome = Expectation;

/** The run's outcome, in the expectation's terms when the expected diagnostic is among several. */
function outcomeOf(result: EtlResult, expected: Expectation): Outcome {
  if (result.code !== 0) return { fatal: fatalCode(result) ?? `unparsed stderr, exit ${result.code}` };
  const codes = (JSON.parse(result.stdout) as { diagnostics: { code: string }[] }).diagnostics.map(
    (d) => d.code,
  );
  if ('diagnostic' in expected && codes.includes(expected.diagnostic)) return expected;
  return codes.length === 0 ? { clean: true } : { diagnostic: codes.join(',') };
}

/** Soak mode (`npm run test:soak`) runs every case in a child process and widens the kill harness. */
export const SOAK = process.env.ETL_SOAK === '1';

export type RunMode = 'in-process' | 'process' | 'unprivileged' | 'mid-run';

export function modeFor(hostile: HostileCase): RunMode {
  if (hostile.midRun) return 'mid-run';
  if (hostile.unprivileged) return 'unprivileged';
  return SOAK || hostile.mayBlock ? 'process' : 'in-process';
}

/** uid/gid of `nobody`: a user for whom `chmod 000` denies, unlike root. */
const NOBODY = 65534;
const AS_NOBODY = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups'];

async function runIn(
  mode: RunMode,
  hostile: HostileCase,
  args: readonly string[],
  dirs: { root: string; scratch: string; tmp: string },
): Promise<EtlResult> {
  if (mode === 'in-process') return runEtlInProcess(args, dirs.tmp);
  if (mode === 'process') return runEtl(args, { tmpDir: dirs.tmp, timeoutMs: 60_000 });
  if (mode === 'unprivileged') {
    mkdirSync(dirs.tmp, { recursive: true });
    // The case tree is readable by others except what the case denies; the scratch dir is theirs.
    chmodSync(dirname(dirs.root), 0o755);
    execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, dirs.scratch]);
    return runEtl(args, {
      tmpDir: dirs.tmp,
      timeoutMs: 60_000,
      command: AS_NOBODY,
      env: { HOME: dirs.scratch, XDG_CONFIG_HOME: dirs.scratch, XDG_DATA_HOME: dirs.scratch },
    });
  }
  const midRun = hostile.midRun!;
  const control = join(dirs.scratch, 'resume');
  const run = await startPausedRun(args, midRun.at, control, dirs.tmp, {}, 60_000);
  // The change must land while the run is held at the read the case names, or it tests nothing.
  expect({ case: hostile.name, heldAt: midRun.at.test(run.held?.sql ?? '') }).toEqual({
    case: hostile.name,
    heldAt: true,
  });
  midRun.change(dirs.root);
  run.resume();
  return run.done;
}
