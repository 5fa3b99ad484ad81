/**
 * Runs one hostile case against a copy of the healthy archive and checks the suite's invariants:
 * bounded time, a contract exit category without a stack trace, the expected typed code, no
 * canary in any output, no temp residue, and archived sessions byte-for-byte unchanged.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import {
  BASELINE_SESSION_IDS,
  userDirUnder,
  writeBaselineGlobalDb,
} from '../../../fixtures/hostile/baseline-corpus.js';
import { canariesIn } from '../../../fixtures/hostile/canaries.js';
import type { Expectation, HostileCase } from '../../../fixtures/hostile/hostile-case.js';
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
import { probeWarehouse, sessionsChecksum } from './warehouse-probe.js';

export interface HealthyArchive {
  /** Every case is built at this same root, so source keys match the archived ones. */
  caseRoot: string;
  warehouse: string;
  checksum: string;
}

/** Loads the healthy corpus once; every case starts from a copy of this warehouse. */
export async function buildHealthyArchive(): Promise<HealthyArchive> {
  const root = tempDir('etl-hostile-base-');
  const caseRoot = join(root, 'case');
  const userDir = userDirUnder(caseRoot);
  writeBaselineGlobalDb(userDir).close();
  const warehouse = join(root, 'healthy.duckdb');
  const result = await runEtlInProcess(
    ['run', '--json', '--cursor-user-dir', userDir, '--target', `duckdb:${warehouse}`],
    join(root, 'tmp'),
  );
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout).run.counts.sessionsInserted).toBe(BASELINE_SESSION_IDS.length);
  return { caseRoot, warehouse, checksum: await sessionsChecksum(warehouse, BASELINE_SESSION_IDS) };
}

export async function runHostileCase(
  hostile: HostileCase,
  healthy: HealthyArchive,
  mode: 'in-process' | 'process',
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
    '--cursor-user-dir',
    userDirUnder(root),
    '--target',
    `duckdb:${warehouse}`,
    ...(hostile.sourceLimits ?? []).flatMap((limit) => ['--source-limit', limit]),
  ];
  const result =
    mode === 'process' ? runEtl(args, { tmpDir: tmp, timeoutMs: 60_000 }) : await runEtlInProcess(args, tmp);
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
  const probe = await probeWarehouse(warehouse, BASELINE_SESSION_IDS);
  expect({ label, archived: probe.checksum }).toEqual({ label, archived: healthy.checksum });
  expect({ label, problems: probe.report.problems }).toEqual({ label, problems: [] });
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

export function modeFor(hostile: HostileCase): 'in-process' | 'process' {
  return SOAK || hostile.mayBlock ? 'process' : 'in-process';
}
