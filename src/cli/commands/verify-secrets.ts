/** `etl verify --secrets`: suspected secrets by table, column and session; exit 5 when a redacted warehouse holds any. */
import { withReadOnlyTarget } from '../../load/read-only-target.js';
import { storedRedactionPolicy } from '../../load/stored-redaction-policy.js';
import { IntegrityError } from '../../shared/errors.js';
import { scanArchiveForSecrets } from '../../sync/verify-secrets.js';
import type { Output } from '../output.js';
import type { TargetSpec } from '../target-spec.js';

export async function verifySecrets(target: TargetSpec, output: Output): Promise<number> {
  const { policy, report } = await withReadOnlyTarget(target, async (connection) => {
    const policy = await storedRedactionPolicy(target, connection);
    return { policy, report: await scanArchiveForSecrets(connection, policy) };
  });
  const redacted = policy?.enabled === true;
  const details = {
    redacted,
    sessionsScanned: report.sessionsScanned,
    suspects: report.suspects.slice(0, 200),
  };
  if (redacted && report.suspects.length > 0) {
    throw new IntegrityError(
      'SECRETS_SUSPECTED',
      `${report.suspects.length} suspected secret location(s) in a redacted warehouse`,
      { ...details, remedy: 'Run `etl redact --target …` with this build to re-redact the archive.' },
    );
  }
  output.success(
    { verifySecrets: { ...details, suspectCount: report.suspects.length } },
    `${report.suspects.length} suspected secret location(s) in ${report.sessionsScanned} sessions (${redacted ? 'redacted' : 'not redacted'} warehouse)`,
  );
  return 0;
}
