/**
 * `etl merge`: loads the sessions of other machines' warehouses (DuckDB files or Parquet datasets,
 * read-only) into one target with the run's replace rules, digests and ledger.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { acquireTargetLock, type TargetLocation, targetOpener } from '../../load/open-target.js';
import { guardWrite } from '../../load/write-failure.js';
import { EXIT, UsageError } from '../../shared/errors.js';
import { withOutputPermissions } from '../../shared/output-permissions.js';
import { type MergeSummary, runMerge } from '../../sync/merge-run.js';
import { diagnosticDigest } from '../diagnostic-digest.js';
import type { Output } from '../output.js';
import { resolveOrigin } from '../run-options.js';
import { parseTargetSpec } from '../target-spec.js';

export interface MergeFlags {
  from: string[];
  target: string;
  origin?: string;
  sharedPermissions?: boolean;
}

/** `duckdb:F`, `parquet:D`, or a bare path: a directory is a Parquet dataset, anything else a DuckDB file. */
export function parseMergeInput(value: string): TargetLocation {
  if (/^(duckdb|parquet):/.test(value)) return parseTargetSpec(value);
  const path = resolve(value);
  let directory = false;
  try {
    directory = statSync(path).isDirectory();
  } catch {
    // A missing input fails when it is opened, typed as not found.
  }
  return { kind: directory ? 'parquet' : 'duckdb', path };
}

function oneLine(summary: MergeSummary): string {
  const c = summary.counts;
  return (
    `merge ${summary.runId} ${summary.status} in ${(summary.durationMs / 1000).toFixed(2)}s: ` +
    `inputs ${summary.inputs} seen/${summary.inputsSkippedUnchanged} unchanged; sessions ${summary.sessionsRead} read, ` +
    `${c.sessionsInserted} inserted, ${c.sessionsReplaced} replaced, ${c.sessionsUnchanged} unchanged, ` +
    `${c.sessionsKeptComplete} kept, ${c.sessionsAmbiguous} ambiguous, ${summary.sessionsRefused} refused; ` +
    `diagnostics ${c.diagnostics}`
  );
}

export async function mergeCommand(flags: MergeFlags, output: Output, signal: AbortSignal): Promise<number> {
  const target = parseTargetSpec(flags.target);
  const inputs = flags.from.map(parseMergeInput);
  const origin = resolveOrigin(flags.origin);
  inputs.forEach((input, index) => {
    if (input.path === target.path)
      throw new UsageError('MERGE_INPUT_IS_TARGET', 'A merge input is the target itself', { input: index });
  });
  const summary = await withOutputPermissions(flags.sharedPermissions ? 'shared' : 'private', async () => {
    const lock = await guardWrite(target.kind, 'lock', () => acquireTargetLock(target));
    try {
      const open = await targetOpener(target);
      const warehouse = await open();
      let finished = false;
      try {
        const result = await runMerge({ inputs, origin, signal }, warehouse);
        finished = true;
        return result;
      } finally {
        if (finished) await warehouse.close();
        else await warehouse.close().catch(() => undefined);
      }
    } finally {
      lock.release();
    }
  });
  const { diagnostics, ...rest } = summary;
  output.success(
    { merge: rest },
    [oneLine(summary), ...diagnosticDigest(diagnostics, {})].join('\n'),
    diagnostics,
  );
  if (summary.status === 'interrupted') return 130;
  return summary.sessionsRefused > 0 ? EXIT.integrity : 0;
}
