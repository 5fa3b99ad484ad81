/**
 * A warehouse another `etl` wrote, read as a merge source: the DuckDB file or the Parquet dataset's
 * published state, opened read-only in the sandbox. Version 4 rows read with a NULL origin; older
 * or newer versions are refused before any row is read.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckDbType } from '../../schemas/table-definition.js';
import { fileEditsTable, usageTable } from '../../schemas/tables.js';
import { IoError, UsageError } from '../shared/errors.js';
import { canonicalHash } from '../shared/json/canonical-json.js';
import { parsePolicy, REDACTION_POLICY_KEY, type RedactionPolicy } from '../shared/redaction-policy.js';
import { openWarehouse } from './duckdb/duckdb-warehouse.js';
import { lockDown } from './duckdb/query-sandbox.js';
import { readStoredSessions, storedSessionRanges, type TableSource } from './duckdb/stored-sessions.js';
import { versionOf, WAREHOUSE_SCHEMA_VERSION } from './duckdb/warehouse-version.js';
import type { AnyTable } from './export/export-tables.js';
import type { TargetLocation } from './open-target.js';
import { openDatasetReadOnly } from './parquet/dataset-reader.js';
import type { StoredSession } from './target.js';

/** The oldest schema version whose digests are this build's (origin stays out of them). */
export const OLDEST_MERGE_VERSION = 4;

export interface MergeInput {
  readonly schemaVersion: number;
  readonly redaction: RedactionPolicy | null;
  /** Last committed run ID + every session's digest: equal fingerprints mean nothing to read. */
  readonly fingerprint: string;
  /** Every session's stored `view_digest`, by session ID. */
  readonly digests: ReadonlyMap<string, string>;
  /** The stored rows of `ids`, a bounded range at a time, in session ID order. */
  sessions(ids: ReadonlySet<string>): AsyncGenerator<StoredSession>;
  close(): void;
}

/** No rows, in a table's columns: what an input older than the table holds of it. */
function emptyRelation(table: AnyTable): string {
  const columns = Object.entries(table.columns).map(([name, spec]) => `NULL::${duckDbType(spec)} AS ${name}`);
  return `(SELECT ${columns.join(', ')} WHERE false)`;
}

/** Tables version 5 added; a version 4 input has none of their rows. */
const ADDED_IN_V5 = new Map<string, AnyTable>(
  [usageTable, fileEditsTable].map((table) => [table.name, table as unknown as AnyTable]),
);

/** Relations naming this build's columns over an older input (origin NULL, v5 tables empty). */
function shimFor(version: number): TableSource {
  if (version >= WAREHOUSE_SCHEMA_VERSION) return (table) => table;
  return (table) => {
    const added = ADDED_IN_V5.get(table);
    if (added !== undefined) return emptyRelation(added);
    return table === 'sessions' || table === 'source_instances'
      ? `(SELECT *, NULL::VARCHAR AS origin FROM ${table})`
      : table;
  };
}

function assertMergeable(version: number | null): number {
  if (version === null)
    throw new IoError('WAREHOUSE_UNREADABLE', 'A merge input is not a cursor-etl warehouse', {
      reason: 'not-a-warehouse',
    });
  if (version < OLDEST_MERGE_VERSION)
    throw new UsageError('WAREHOUSE_MIGRATION_REQUIRED', "A merge input holds an older build's schema", {
      warehouseVersion: version,
      supportedVersion: WAREHOUSE_SCHEMA_VERSION,
      remedy: "Run etl run once with this version on the input's machine (it migrates it), then merge again.",
    });
  return version;
}

async function readDigests(connection: DuckDBConnection): Promise<Map<string, string>> {
  const reader = await connection.runAndReadAll(
    'SELECT session_id, view_digest FROM sessions ORDER BY session_id',
  );
  return new Map(reader.getRows().map((row) => [String(row[0]), String(row[1])]));
}

async function lastCommittedRun(connection: DuckDBConnection): Promise<string | null> {
  const reader = await connection.runAndReadAll(
    "SELECT run_id FROM etl_runs WHERE status = 'committed' ORDER BY started_at DESC, run_id DESC LIMIT 1",
  );
  const row = reader.getRows()[0];
  return row === undefined ? null : String(row[0]);
}

async function* rangesOf(
  connection: DuckDBConnection,
  from: TableSource,
  ids: ReadonlySet<string>,
): AsyncGenerator<StoredSession> {
  if (ids.size === 0) return;
  for (const range of await storedSessionRanges(connection, undefined, from)) {
    const wanted = range.sessionIds.filter((id) => ids.has(id));
    if (wanted.length === 0) continue;
    const sub = { first: wanted[0]!, last: wanted[wanted.length - 1]!, sessionIds: wanted };
    yield* await readStoredSessions(connection, sub, from);
  }
}

function mergeInput(
  connection: DuckDBConnection,
  close: () => void,
  schemaVersion: number,
  redaction: RedactionPolicy | null,
  lastRunId: string | null,
  digests: Map<string, string>,
): MergeInput {
  const from = shimFor(schemaVersion);
  return {
    schemaVersion,
    redaction,
    digests,
    fingerprint: canonicalHash({ lastRunId, digests: [...digests] }),
    sessions: (ids) => rangesOf(connection, from, ids),
    close,
  };
}

export async function openMergeInput(location: TargetLocation): Promise<MergeInput> {
  if (location.kind === 'parquet') {
    const dataset = await openDatasetReadOnly(location.path);
    try {
      const version = assertMergeable(dataset.manifest.schemaVersion);
      const digests = await readDigests(dataset.connection);
      const redaction = parsePolicy(dataset.manifest.redaction);
      return mergeInput(
        dataset.connection,
        dataset.close,
        version,
        redaction,
        dataset.manifest.runId,
        digests,
      );
    } catch (error) {
      dataset.close();
      throw error;
    }
  }
  const warehouse = await openWarehouse(location.path, 'read');
  try {
    const version = assertMergeable(versionOf(warehouse.meta));
    await lockDown(warehouse.connection, []);
    const digests = await readDigests(warehouse.connection);
    const redaction = parsePolicy(warehouse.meta?.get(REDACTION_POLICY_KEY));
    const lastRunId = await lastCommittedRun(warehouse.connection);
    return mergeInput(warehouse.connection, warehouse.close, version, redaction, lastRunId, digests);
  } catch (error) {
    warehouse.close();
    throw error;
  }
}
