/** `etl verify --sources`: the archive against a fresh read of the sources; exit 5 when they differ. */

import { assertCurrentSchema } from '../../load/duckdb/warehouse-version.js';
import { withReadOnlyTarget } from '../../load/read-only-target.js';
import { storedRedactionPolicy } from '../../load/stored-redaction-policy.js';
import { IntegrityError } from '../../shared/errors.js';
import { compareWithSources, readArchivedSessions } from '../../sync/verify-sources.js';
import type { Output } from '../output.js';
import { type RunFlags, resolveRunFlags } from '../run-options.js';

/** Listed IDs are capped in the report; the counts are always whole. */
const LISTED = 200;

export async function verifySources(flags: RunFlags, output: Output): Promise<number> {
  const { options, target } = await resolveRunFlags(flags);
  const { policy, archived } = await withReadOnlyTarget(target, async (connection) => {
    if (target.kind === 'duckdb') await assertCurrentSchema(connection);
    return {
      policy: await storedRedactionPolicy(target, connection),
      archived: await readArchivedSessions(connection),
    };
  });
  const report = await compareWithSources(options, policy, archived);
  const counts = { differ: report.differ.length, missing: report.missing.length, extra: report.extra.length };
  const listed = {
    sessionsRead: report.sessionsRead,
    sessionsArchived: report.sessionsArchived,
    differ: report.differ.slice(0, LISTED),
    missing: report.missing.slice(0, LISTED),
    extra: report.extra.slice(0, LISTED),
  };
  if (counts.differ + counts.missing + counts.extra > 0) {
    throw new IntegrityError(
      'SOURCES_DIFFER_FROM_ARCHIVE',
      `the archive differs from the sources: ${counts.differ} differ, ${counts.missing} missing, ${counts.extra} no longer in any source`,
      {
        ...listed,
        remedy:
          'Run `etl run` (without --since-last) with the same source options to bring the archive up to date.',
      },
    );
  }
  output.success(
    { verifySources: listed },
    `ok: ${report.sessionsRead} sessions read from the sources match the archive (${report.sessionsArchived} archived)`,
  );
  return 0;
}
