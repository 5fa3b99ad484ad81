/** `etl verify`: integrity check of the warehouse (or, with --sources, against the sources); exit 5 on any mismatch. */

import {
  fitVerifyMemory,
  type VerifyReport,
  verifySettings,
  verifyWarehouse,
} from '../../load/duckdb/verify-warehouse.js';
import { assertCurrentSchema } from '../../load/duckdb/warehouse-version.js';
import { verifyTargetFiles, withReadOnlyTarget } from '../../load/read-only-target.js';
import { IntegrityError, UsageError } from '../../shared/errors.js';
import { PrivateTempDir } from '../../shared/temp/private-temp-dir.js';
import type { Output } from '../output.js';
import type { RunFlags } from '../run-options.js';
import { parseTargetSpec } from '../target-spec.js';

export async function verifyCommand(
  flags: RunFlags & { secrets?: boolean; sources?: boolean },
  output: Output,
): Promise<number> {
  if (flags.secrets && flags.sources) {
    throw new UsageError('USAGE_ERROR', '--secrets and --sources are separate checks; run one at a time', {
      reason: 'conflicting-options',
    });
  }
  if (flags.sources) return (await import('./verify-sources.js')).verifySources(flags, output);
  const target = parseTargetSpec(flags.target);
  if (flags.secrets) return (await import('./verify-secrets.js')).verifySecrets(target, output);
  await verifyTargetFiles(target);
  const spill = PrivateTempDir.create();
  let report: VerifyReport;
  try {
    report = await withReadOnlyTarget(
      target,
      async (connection) => {
        await assertCurrentSchema(connection);
        return verifyWarehouse(connection);
      },
      { settings: verifySettings(spill.path), prepare: fitVerifyMemory },
    );
  } finally {
    spill.dispose();
  }
  if (report.problems.length > 0) {
    throw new IntegrityError(
      'WAREHOUSE_INTEGRITY_FAILED',
      `${report.problems.length} integrity problem(s) found`,
      {
        sessionsChecked: report.sessionsChecked,
        problems: report.problems.slice(0, 50),
      },
    );
  }
  output.success({ verify: report }, `ok: ${report.sessionsChecked} sessions verified, no problems`);
  return 0;
}
