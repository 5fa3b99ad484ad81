/** `etl report --out report.html`: one self-contained HTML page over the warehouse, readable offline. */
import { resolve } from 'node:path';
import { queryTimeZoneSetting } from '../../load/duckdb/read-only-query.js';
import { assertCurrentSchema } from '../../load/duckdb/warehouse-version.js';
import { asExportWriteFailure, ExportDestination } from '../../load/export/export-destination.js';
import { withReadOnlyTarget } from '../../load/read-only-target.js';
import { writeReport } from '../../load/report/write-report.js';
import { storedRedactionPolicy } from '../../load/stored-redaction-policy.js';
import { UsageError } from '../../shared/errors.js';
import { withOutputPermissions } from '../../shared/output-permissions.js';
import { formatTable } from '../format-table.js';
import type { Output } from '../output.js';
import { parseTargetSpec } from '../target-spec.js';

export interface ReportFlags {
  out: string;
  target?: string;
  maxSessions?: string;
  overwrite?: boolean;
  sharedPermissions?: boolean;
}

/** Sessions listed and embedded unless --max-sessions says otherwise; the overview counts every session. */
export const DEFAULT_MAX_SESSIONS = 500;
const MAX_SESSIONS_LIMIT = 100_000;

function parseMaxSessions(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_SESSIONS;
  const n = /^[1-9]\d*$/.test(value) ? Number(value) : Number.NaN;
  if (!(n <= MAX_SESSIONS_LIMIT))
    throw new UsageError('USAGE_ERROR', `--max-sessions takes a count from 1 to ${MAX_SESSIONS_LIMIT}`, {
      reason: 'invalid-max-sessions',
    });
  return n;
}

export async function reportCommand(flags: ReportFlags, output: Output): Promise<number> {
  const target = parseTargetSpec(flags.target);
  const maxSessions = parseMaxSessions(flags.maxSessions);
  const out = resolve(flags.out);
  const summary = await withOutputPermissions(flags.sharedPermissions ? 'shared' : 'private', async () => {
    const destination = ExportDestination.prepare('html-report', out, flags.overwrite === true);
    try {
      const written = await withReadOnlyTarget(
        target,
        async (connection) => {
          await assertCurrentSchema(connection);
          const policy = await storedRedactionPolicy(target, connection);
          return writeReport(connection, {
            out: destination.stagedPath,
            maxSessions,
            redacted: policy?.enabled === true,
          }).catch((error: unknown) => {
            throw asExportWriteFailure(error);
          });
        },
        { settings: queryTimeZoneSetting('UTC') },
      );
      destination.publish();
      return written;
    } finally {
      destination.dispose();
    }
  });
  const row = {
    file: out,
    sessions: summary.sessions,
    listed: summary.listedSessions,
    messages: summary.messages,
    bytes: summary.bytes,
  };
  output.success({ report: row }, formatTable(['file', 'sessions', 'listed', 'messages', 'bytes'], [row]));
  return 0;
}
