/**
 * A warehouse another `etl` wrote, read as a merge source: the DuckDB file or the Parquet dataset's
 * published state, opened read-only in the sandbox. An older DuckDB file is read from a migrated
 * private copy, made only when a session must be read; an older dataset is read as it is.
 */
import { copyFileSync, existsSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { IoError, UsageError } from '../shared/errors.js';
import { canonicalHash } from '../shared/json/canonical-json.js';
import { parsePolicy, REDACTION_POLICY_KEY, type RedactionPolicy } from '../shared/redaction-policy.js';
import { PrivateTempDir } from '../shared/temp/private-temp-dir.js';
import { type OpenedWarehouse, openWarehouse, recordedLargestValue } from './duckdb/duckdb-warehouse.js';
import { lockDown } from './duckdb/query-sandbox.js';
import { sqlList } from './duckdb/sql-string.js';
import type { StoredSessionProblem } from './duckdb/stored-session-check.js';
import { readStoredSessions, storedSessionRanges } from './duckdb/stored-sessions.js';
import { fitMemoryLimit, largestStoredValueBytes } from './duckdb/value-memory.js';
import { versionOf, WAREHOUSE_SCHEMA_VERSION } from './duckdb/warehouse-version.js';
import {
  type AbsentColumns,
  absentColumns,
  DIGEST_TABLES,
  duckDbColumns,
  inCurrentTerms,
  inputSessionProblems,
} from './merge-input-check.js';
import type { TargetLocation } from './open-target.js';
import { DatasetLayout } from './parquet/dataset-layout.js';
import type { DatasetManifest } from './parquet/dataset-manifest.js';
import { openDatasetReadOnly, stateFiles } from './parquet/dataset-reader.js';
import type { StoredSession } from './target.js';

/**
 * The oldest schema version a merge reads: from version 3 on, a stored digest is this build's digest
 * definition over the input's own columns, so it is verified as stored. Older ones hashed provenance.
 */
export const OLDEST_MERGE_VERSION = 3;

/** The version whose step adds `file_edits`: an older input's sessions get them derived. */
const FILE_EDITS_SINCE = 5;

/** A session read from an input: verified against its stored digest, in this build's terms when clean. */
export interface MergeInputSession {
  readonly stored: StoredSession;
  readonly problems: readonly StoredSessionProblem[];
}

export interface MergeInput {
  readonly schemaVersion: number;
  readonly redaction: RedactionPolicy | null;
  /** Last committed run ID + every session's digest: equal fingerprints mean nothing to read. */
  readonly fingerprint: string;
  /** Every session's `view_digest` as the input stores it, by session ID. */
  readonly digests: ReadonlyMap<string, string>;
  /** The rows of `ids`, a bounded range at a time, in session ID order. */
  sessions(ids: ReadonlySet<string>): AsyncGenerator<MergeInputSession>;
  close(): void;
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
  ids: ReadonlySet<string>,
): AsyncGenerator<StoredSession> {
  for (const range of await storedSessionRanges(connection)) {
    const wanted = range.sessionIds.filter((id) => ids.has(id));
    if (wanted.length === 0) continue;
    const sub = { first: wanted[0]!, last: wanted[wanted.length - 1]!, sessionIds: wanted };
    yield* await readStoredSessions(connection, sub);
  }
}

interface InputParts {
  /** The connection sessions are read from, opened at the first read. */
  reader: () => Promise<DuckDBConnection>;
  close: () => void;
  schemaVersion: number;
  redaction: RedactionPolicy | null;
  lastRunId: string | null;
  digests: Map<string, string>;
  /** The columns of this build the input lacks, asked once, when sessions are first read. */
  absent: () => Promise<AbsentColumns>;
}

function mergeInput(parts: InputParts): MergeInput {
  const { digests, schemaVersion } = parts;
  let absent: AbsentColumns | null = null;
  return {
    schemaVersion,
    redaction: parts.redaction,
    digests,
    fingerprint: canonicalHash({ lastRunId: parts.lastRunId, digests: [...digests] }),
    async *sessions(ids) {
      if (ids.size === 0) return;
      absent ??= await parts.absent();
      const lacking = absent;
      for await (const stored of rangesOf(await parts.reader(), ids)) {
        const problems = inputSessionProblems(stored, digests.get(stored.session.session_id), lacking);
        const current =
          problems.length === 0 ? inCurrentTerms(stored, schemaVersion < FILE_EDITS_SINCE) : stored;
        yield { stored: current, problems };
      }
    },
    close: parts.close,
  };
}

/** The digest tables' columns every file of the published state holds, from the Parquet footers. */
async function datasetColumns(
  dataset: OpenedWarehouse & { manifest: DatasetManifest },
  root: string,
): Promise<Map<string, Set<string>>> {
  const present = new Map<string, Set<string>>();
  for (const table of DIGEST_TABLES) {
    const files = [...new Set(stateFiles(new DatasetLayout(root), dataset.manifest, table.name))];
    if (files.length === 0) continue;
    const reader = await dataset.connection.runAndReadAll(
      `SELECT name FROM parquet_schema(${sqlList(files)}) GROUP BY name HAVING count(DISTINCT file_name) = ${files.length}`,
    );
    present.set(table.name, new Set(reader.getRows().map((row) => String(row[0]))));
  }
  return present;
}

async function openDatasetInput(root: string): Promise<MergeInput> {
  const dataset = await openDatasetReadOnly(root);
  try {
    return mergeInput({
      reader: async () => dataset.connection,
      close: dataset.close,
      schemaVersion: assertMergeable(dataset.manifest.schemaVersion),
      redaction: parsePolicy(dataset.manifest.redaction),
      lastRunId: dataset.manifest.runId,
      digests: await readDigests(dataset.connection),
      absent: async () => absentColumns(await datasetColumns(dataset, root)),
    });
  } catch (error) {
    dataset.close();
    throw error;
  }
}

/**
 * A migrated copy of an older DuckDB input in a private temp dir (0700), removed at close: the
 * input file itself is never opened for writing.
 */
function migratedCopy(path: string): { reader: () => Promise<DuckDBConnection>; close: () => void } {
  let temp: PrivateTempDir | null = null;
  let copy: OpenedWarehouse | null = null;
  return {
    reader: async () => {
      if (copy !== null) return copy.connection;
      temp = PrivateTempDir.create();
      const file = temp.file('merge-input.duckdb');
      copyFileSync(path, file);
      if (existsSync(`${path}.wal`)) copyFileSync(`${path}.wal`, `${file}.wal`);
      copy = await openWarehouse(file, 'write');
      return copy.connection;
    },
    close: () => {
      try {
        copy?.close();
      } finally {
        temp?.dispose();
      }
    },
  };
}

/**
 * The input's pool: DuckDB's default (80 % of RAM) kept every block the merge read resident, about
 * 285 MB of a one-input merge's peak; bounded, it evicts them and spills to a private directory.
 */
const INPUT_MEMORY_BYTES = 64_000_000;

/**
 * Fits the pool to the largest value the input's writer recorded; only an input without that record
 * pays for the segment statistics (~0.1-0.5 s on a 350 MB file), so an unchanged merge stays cheap.
 */
export async function boundInputMemory(
  connection: DuckDBConnection,
  meta: ReadonlyMap<string, string> | null,
): Promise<void> {
  const largest = recordedLargestValue(meta) ?? (await largestStoredValueBytes(connection));
  await fitMemoryLimit(connection, INPUT_MEMORY_BYTES, largest);
}

async function openDuckDbInput(path: string): Promise<MergeInput> {
  const warehouse = await openWarehouse(path, 'read');
  const copy = migratedCopy(path);
  const spill = PrivateTempDir.create();
  const close = (): void => {
    try {
      copy.close();
    } finally {
      try {
        warehouse.close();
      } finally {
        spill.dispose();
      }
    }
  };
  try {
    const schemaVersion = assertMergeable(versionOf(warehouse.meta));
    const absent = absentColumns(await duckDbColumns(warehouse.connection));
    await lockDown(warehouse.connection, [], { temp_directory: spill.path }, (connection) =>
      boundInputMemory(connection, warehouse.meta),
    );
    return mergeInput({
      reader: schemaVersion < WAREHOUSE_SCHEMA_VERSION ? copy.reader : async () => warehouse.connection,
      close,
      schemaVersion,
      redaction: parsePolicy(warehouse.meta?.get(REDACTION_POLICY_KEY)),
      lastRunId: await lastCommittedRun(warehouse.connection),
      digests: await readDigests(warehouse.connection),
      absent: async () => absent,
    });
  } catch (error) {
    close();
    throw error;
  }
}

export function openMergeInput(location: TargetLocation): Promise<MergeInput> {
  return location.kind === 'parquet' ? openDatasetInput(location.path) : openDuckDbInput(location.path);
}
