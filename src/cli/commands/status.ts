/**
 * `etl status`: recent runs with status and counts, ledger and table sizes, warehouse size and
 * interrupted runs. A run still marked `running` while no live run holds the lock died: it is
 * reported `interrupted` (the next `etl run` records that too).
 */
import { runQuery } from '../../load/duckdb/read-only-query.js';
import { assertCurrentSchema } from '../../load/duckdb/warehouse-version.js';
import { targetLockBase } from '../../load/open-target.js';
import { targetSizeBytes, withReadOnlyTarget } from '../../load/read-only-target.js';
import { lockHolder } from '../../shared/process/run-lock.js';
import { formatTable } from '../format-table.js';
import type { Output } from '../output.js';
import { parseTargetSpec } from '../target-spec.js';

const RUNS_SQL = `SELECT run_id, status, mode, started_at, finished_at, sources_seen, sources_skipped_unchanged,
  sessions_inserted, sessions_replaced, sessions_unchanged, sessions_kept_complete, sessions_ambiguous,
  sessions_marked_absent, diagnostics, payload_bytes_read
  FROM etl_runs ORDER BY started_at DESC, run_id DESC LIMIT 10`;
const COUNTS_SQL = `SELECT (SELECT count(*) FROM sessions) AS sessions, (SELECT count(*) FROM messages) AS messages,
  (SELECT count(*) FROM tool_calls) AS tool_calls, (SELECT count(*) FROM source_instances) AS source_instances,
  (SELECT count(*) FROM diagnostics) AS diagnostics, (SELECT count(*) FROM etl_runs) AS runs`;
const LEDGER_SQL = `SELECT (SELECT count(*) FROM etl_sources) AS sources,
  (SELECT count(*) FROM etl_sources WHERE NOT present) AS sources_gone,
  (SELECT count(*) FROM etl_session_sources) AS session_sources,
  (SELECT count(*) FROM etl_session_state) AS session_states,
  (SELECT count(*) FROM etl_session_state WHERE NOT present_in_source) AS sessions_absent`;
const INTERRUPTED_SQL = `SELECT run_id, status, started_at FROM etl_runs
  WHERE status IN ('running', 'interrupted') ORDER BY started_at DESC, run_id DESC`;

export async function statusCommand(flags: { target?: string }, output: Output): Promise<number> {
  const target = parseTargetSpec(flags.target);
  const liveHolder = lockHolder(targetLockBase(target));
  const { runs, counts, ledger, interrupted } = await withReadOnlyTarget(target, async (connection) => {
    await assertCurrentSchema(connection);
    return {
      runs: await runQuery(connection, RUNS_SQL),
      counts: (await runQuery(connection, COUNTS_SQL)).rows[0] ?? {},
      ledger: (await runQuery(connection, LEDGER_SQL)).rows[0] ?? {},
      interrupted: (await runQuery(connection, INTERRUPTED_SQL)).rows,
    };
  });
  // Without a live lock holder, nothing can still be running.
  const dead = (row: Record<string, unknown>): boolean => row.status === 'running' && liveHolder === null;
  for (const row of [...runs.rows, ...interrupted]) if (dead(row)) row.status = 'interrupted';
  const interruptedRuns = interrupted.filter((r) => r.status === 'interrupted');
  const warehouseBytes = await targetSizeBytes(target);
  const human = [
    `warehouse: ${warehouseBytes} bytes; ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `ledger: ${Object.entries(ledger)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    liveHolder === null ? '' : `a run is in progress (pid ${liveHolder})`,
    interruptedRuns.length > 0
      ? `interrupted runs: ${interruptedRuns.length} (latest ${String(interruptedRuns[0]!.run_id)})`
      : '',
    formatTable(runs.columns, runs.rows),
  ]
    .filter((line) => line.length > 0)
    .join('\n');
  output.success(
    {
      warehouseBytes,
      counts,
      ledger,
      runningPid: liveHolder,
      interruptedRuns: interruptedRuns.map((r) => r.run_id),
      runs: runs.rows,
    },
    human,
  );
  return 0;
}
