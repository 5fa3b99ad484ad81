/**
 * `etl redact --target …`: re-redacts a warehouse from its own rows (no sources needed) and makes
 * redaction its policy. The archive is rebuilt, so no plaintext byte stays in any of its files.
 */
import { existsSync } from 'node:fs';
import { acquireTargetLock, targetOpener } from '../../load/open-target.js';
import { guardWrite } from '../../load/write-failure.js';
import { NotFoundError } from '../../shared/errors.js';
import { archiveRewrittenDiagnostic, settleRedaction } from '../../sync/redaction-gate.js';
import type { RedactionCounts } from '../../transform/redact/redact-session.js';
import { loadConfigFile } from '../config-file.js';
import type { Output } from '../output.js';
import { redactionRequest } from '../run-options.js';
import { parseTargetSpec } from '../target-spec.js';

export interface RedactFlags {
  target?: string;
  config?: string;
  redactHomePaths?: boolean;
}

export async function redactCommand(flags: RedactFlags, output: Output): Promise<number> {
  const config = await loadConfigFile(flags.config);
  const location = parseTargetSpec(flags.target ?? config.target);
  if (!existsSync(location.path)) {
    throw new NotFoundError(
      'WAREHOUSE_NOT_FOUND',
      'No warehouse exists at the target; run `etl run` first',
      {},
    );
  }
  const request = redactionRequest({ redact: true, redactHomePaths: flags.redactHomePaths }, config);
  const lock = await guardWrite(location.kind, 'lock', () => acquireTargetLock(location));
  const counts: RedactionCounts = {};
  let rewritten: number | null;
  try {
    const target = await (await targetOpener(location))();
    try {
      ({ rewritten } = await settleRedaction(target, request, counts));
    } finally {
      await target.close();
    }
  } finally {
    lock.release();
  }
  if (rewritten === null) {
    output.success({ redact: { rewritten: 0 } }, 'already redacted under this ruleset: nothing to do');
    return 0;
  }
  const report = archiveRewrittenDiagnostic(rewritten, counts);
  output.success({ redact: { rewritten, ...report.details } }, report.message, [report]);
  return 0;
}
