/**
 * Warehouse bookkeeping tables: runs, the per-source sync ledger and per-session source membership
 * and presence. Content tables never carry sync state, so identical input writes zero content rows.
 */
import { column, defineTable, nullable, oneOf, type RowOf } from './table-definition.js';

export const runsTable = defineTable('etl_runs', 'One row per `etl run`, with its status and counts.', {
  run_id: column('text', 'Run identifier.'),
  started_at: column('timestamp', 'When the run started (UTC, wall clock: run bookkeeping only).'),
  finished_at: nullable('timestamp', 'When the run finished; NULL while running or when interrupted.'),
  status: oneOf(['running', 'committed', 'failed', 'interrupted'], 'Run status.'),
  mode: oneOf(['full', 'since-last', 'merge'], 'Run mode (`merge`: `etl merge` of other warehouses).'),
  options_digest: column('text', 'SHA-256 of the canonical run options (what was read, limits, scope).'),
  sources_seen: column('int', 'Physical sources discovered.'),
  sources_skipped_unchanged: column('int', 'Sources skipped because their fingerprint was unchanged.'),
  sessions_inserted: column('int', 'Sessions inserted.'),
  sessions_replaced: column('int', 'Sessions replaced as a whole.'),
  sessions_unchanged: column('int', 'Sessions read whose digest was unchanged (zero writes).'),
  sessions_kept_complete: column('int', 'Partial views not loaded over an archived complete session.'),
  sessions_ambiguous: column(
    'int',
    'Sessions met as ambiguous: ambiguity rows inserted or archived rows kept.',
  ),
  diagnostics: column('int', 'Diagnostics recorded.'),
  sessions_marked_absent: column('int', 'Archived sessions newly flagged absent from their sources.'),
  payload_bytes_read: column('bigint', 'Conversation payload bytes read from sources.'),
  owner_pid: nullable('int', 'Process ID of the run (diagnostic only).'),
  origin: nullable(
    'text',
    'The origin the run wrote as (`--origin`, docs/team-archive.md); NULL for runs before origins.',
  ),
});

export const sourcesTable = defineTable(
  'etl_sources',
  'Sync ledger: one row per physical source ever read, with its last committed fingerprint.',
  {
    source_key: column('text', 'Opaque source key (a hash of kind and location), never a path.'),
    kind: column('text', 'Source kind (e.g. `composer-global-db`).'),
    roots_digest: column('text', 'SHA-256 of the source roots of the run that last read it.'),
    options_digest: column('text', 'Options digest of the run that last read it (limits, preference).'),
    dev: column('bigint', 'Device number at the last committed read.'),
    ino: column('bigint', 'Inode number at the last committed read.'),
    size: column('bigint', 'Size in bytes at the last committed read.'),
    mtime_ms: column('bigint', 'Modification time (ms) at the last committed read; change evidence only.'),
    sidecars: nullable('json', 'Sidecar fingerprints (e.g. SQLite `-wal`) at the last committed read.'),
    content_hash: nullable('text', 'Content or prefix hash where the adapter computes one cheaply.'),
    fingerprint_digest: column(
      'text',
      'SHA-256 of the whole canonical fingerprint (compared by --since-last).',
    ),
    checkpoint: nullable(
      'json',
      'Verified prefix checkpoint for append-only sources, when an adapter keeps one.',
    ),
    present: column('bool', 'False once a run over the same roots no longer discovers the source.'),
    first_seen_run: column('text', 'Run that first read the source.'),
    last_seen_run: column(
      'text',
      'Last committed run that wrote this row (the source new, changed or read again); runs that skip it unchanged leave it.',
    ),
    last_changed_run: column('text', 'Last committed run that saw a changed fingerprint.'),
  },
);

export const sessionSourcesTable = defineTable(
  'etl_session_sources',
  'Sync ledger: which source occurrences each archived session was built from.',
  {
    session_id: column('text', 'Session ID (byte-exact).'),
    source_key: column('text', 'Opaque source key.'),
    occurrence_ref: column('text', 'Opaque occurrence reference.'),
    session_fingerprint: nullable('text', 'Per-session change evidence inside the source, when available.'),
    content_fingerprint: nullable(
      'text',
      'Per-session content digest inside the source, when known (sees in-place updates of rows).',
    ),
    last_seen_run: column('text', 'Last run whose load transaction covered this occurrence.'),
  },
);

export const sessionStateTable = defineTable(
  'etl_session_state',
  'Sync ledger: presence of each archived session in the sources (content rows are never deleted).',
  {
    session_id: column('text', 'Session ID (byte-exact).'),
    present_in_source: column('bool', 'False when every source that held the session no longer does.'),
    first_seen_run: column('text', 'Run that first archived the session.'),
    last_seen_run: column(
      'text',
      'Last run that read the session from its sources; runs that skipped them unchanged leave it.',
    ),
    last_changed_run: nullable(
      'text',
      'Last run that inserted or replaced the session; NULL when archived before the ledger existed.',
    ),
    absent_since_run: nullable('text', 'Run that first found the session absent; NULL while present.'),
  },
);

// change-feed (schema version 5): the per-session change log and the consumers' cursors over it.
export const SESSION_CHANGES = ['inserted', 'replaced', 'absent'] as const;

export const sessionChangesTable = defineTable(
  'etl_session_changes',
  'Change log: one row per session a committed load inserted, replaced or first found absent.',
  {
    change_seq: column('bigint', 'Position in the log: increases with every change a load commits.'),
    run_id: column('text', 'Run whose load committed the change.'),
    session_id: column('text', 'Session ID (byte-exact).'),
    change: oneOf(SESSION_CHANGES, 'What the run did to the archived session.'),
  },
);

export const consumersTable = defineTable(
  'etl_consumers',
  'Change feed cursors: how far each named consumer of `etl export --changes` has acknowledged the log.',
  {
    consumer: column('text', 'Consumer name given to `--consumer`.'),
    acked_seq: column('bigint', 'Highest `change_seq` covered by the last durably written export.'),
    acked_run: nullable('text', 'Run of that change; NULL when the log was empty.'),
    acked_at: column('timestamp', 'When the export was acknowledged (UTC, wall clock: bookkeeping only).'),
    exports: column('int', 'Exports acknowledged for this consumer.'),
  },
);

export const LEDGER_TABLES = [
  runsTable,
  sourcesTable,
  sessionSourcesTable,
  sessionStateTable,
  sessionChangesTable,
  consumersTable,
] as const;
export type RunRow = RowOf<typeof runsTable.columns>;
export type SourceLedgerRow = RowOf<typeof sourcesTable.columns>;
export type SessionSourceRow = RowOf<typeof sessionSourcesTable.columns>;
export type SessionStateRow = RowOf<typeof sessionStateTable.columns>;
export type SessionChangeRow = RowOf<typeof sessionChangesTable.columns>;
export type ConsumerRow = RowOf<typeof consumersTable.columns>;
