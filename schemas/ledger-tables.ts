/** Warehouse bookkeeping tables (runs and, later, the source ledger), shared by every target. */
import { column, defineTable, nullable, oneOf, type RowOf } from './table-definition.js';

export const runsTable = defineTable('etl_runs', 'One row per `etl run`, with its status and counts.', {
  run_id: column('text', 'Run identifier.'),
  started_at: column('timestamp', 'When the run started (UTC, wall clock: run bookkeeping only).'),
  finished_at: nullable('timestamp', 'When the run finished; NULL while running or when interrupted.'),
  status: oneOf(['running', 'committed', 'failed', 'interrupted'], 'Run status.'),
  mode: oneOf(['full', 'since-last'], 'Run mode.'),
  options_digest: column('text', 'SHA-256 of the canonical run options (what was read, limits, scope).'),
  sources_seen: column('int', 'Physical sources discovered.'),
  sources_skipped_unchanged: column('int', 'Sources skipped because their fingerprint was unchanged.'),
  sessions_inserted: column('int', 'Sessions inserted.'),
  sessions_replaced: column('int', 'Sessions replaced as a whole.'),
  sessions_unchanged: column('int', 'Sessions read whose digest was unchanged (zero writes).'),
  sessions_kept_complete: column('int', 'Partial views not loaded over an archived complete session.'),
  sessions_ambiguous: column('int', 'Ambiguity rows recorded.'),
  diagnostics: column('int', 'Diagnostics recorded.'),
});

export const LEDGER_TABLES = [runsTable] as const;
export type RunRow = RowOf<typeof runsTable.columns>;
