/** `etl status`: recent runs with status and counts, table sizes, warehouse size. */
import { statSync } from 'node:fs';
import { runQuery, withReadOnlyWarehouse } from '../../load/duckdb/read-only-query.js';
import { UsageError } from '../../shared/errors.js';
import { formatTable } from '../format-table.js';
import type { Output } from '../output.js';
import { parseTargetSpec } from '../target-spec.js';

const RUNS_SQL = `SELECT run_id, status, mode, started_at, finished_at, sources_seen, sources_skipped_unchanged,
  sessions_inserted, sessions_replaced, sessions_unchanged, sessions_kept_complete, sessions_ambiguous, diagnostics
  FROM etl_runs ORDER BY started_at DESC, run_id DESC LIMIT 10`;
const COUNTS_SQL = `SELECT (SELECT count(*) FROM sessions) AS sessions, (SELECT count(*) FROM messages) AS messages,
  (SELECT count(*) FROM tool_calls) AS tool_calls, (SELECT count(*) FROM source_instances) AS source_instances,
  (SELECT count(*) FROM diagnostics) AS diagnostics, (SELECT count(*) FROM etl_runs) AS runs`;

export async function statusCommand(flags: { target?: string }, output: Output): Promise<number> {
  const target = parseTargetSpec(flags.target);
  if (target.kind !== 'duckdb')
    throw new UsageError('TARGET_UNSUPPORTED', 'etl status reads a DuckDB warehouse', {});
  const { runs, counts } = await withReadOnlyWarehouse(target.path, async (connection) => ({
    runs: await runQuery(connection, RUNS_SQL),
    counts: (await runQuery(connection, COUNTS_SQL)).rows[0] ?? {},
  }));
  const warehouseBytes = statSync(target.path).size;
  const interrupted = runs.rows.filter((r) => r.status === 'running' || r.status === 'interrupted').length;
  const human = [
    `warehouse: ${warehouseBytes} bytes; ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    interrupted > 0 ? `interrupted runs among the last 10: ${interrupted}` : '',
    formatTable(runs.columns, runs.rows),
  ]
    .filter((line) => line.length > 0)
    .join('\n');
  output.success({ warehouseBytes, counts, runs: runs.rows }, human);
  return 0;
}
