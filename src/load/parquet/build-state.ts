/**
 * Builds the next published state: touched partitions are rewritten with DuckDB's Parquet writer;
 * every other file is hard-linked from the previous state, or copied and flushed where the storage
 * refuses links. `previous` holds only files checked against their digests when the run opened.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { LEDGER_TABLES, sessionSourcesTable, sessionStateTable } from '../../../schemas/ledger-tables.js';
import { CONTENT_TABLES, diagnosticsTable, sourceInstancesTable } from '../../../schemas/tables.js';
import { outputModes } from '../../shared/output-permissions.js';
import type { RedactionPolicy } from '../../shared/redaction-policy.js';
import { sqlList, sqlString } from '../duckdb/sql-string.js';
import { WAREHOUSE_SCHEMA_VERSION } from '../duckdb/warehouse-version.js';
import { copyQueryTo, PARQUET_COPY_OPTIONS } from '../export/copy-export.js';
import { type AnyTable, orderByFor } from '../export/export-tables.js';
import { fsyncPath } from '../fs/durable-file.js';
import { UNDASHED_COMPACT_CANDIDATES_SQL, undashedCompactSessionsSql } from '../undashed-compact-sessions.js';
import {
  BUCKET_COUNT,
  BUCKET_SQL,
  bucketOf,
  contentFilePath,
  type DatasetLayout,
  diagnosticsFilePath,
  ledgerFilePath,
} from './dataset-layout.js';
import {
  type DatasetManifest,
  MANIFEST_FORMAT,
  MANIFEST_FORMAT_VERSION,
  type ManifestFile,
  type ManifestTable,
} from './dataset-manifest.js';
import { readFilesSql, stateFiles } from './dataset-reader.js';
import { type LinkRefusal, linkOrCopy } from './link-or-copy.js';
import { lacksColumns } from './older-shape.js';
import { copyOrderedPartition, measureStagedSessions, type PartitionLimits } from './ordered-partition.js';
import { fileSha256 } from './state-integrity.js';

export interface StateInput {
  layout: DatasetLayout;
  /** The staging database: staged rows in tables named like the warehouse's, `staged_sessions`. */
  staging: DuckDBConnection;
  previous: DatasetManifest | null;
  runId: string;
  touchedBuckets: ReadonlySet<string>;
  publishedAtMs: number;
  /** Bounds of the content partitions' sorts and row groups (tests shrink them). */
  limits?: PartitionLimits;
  /** The redaction policy the state is published under. */
  redaction?: RedactionPolicy | null;
  /**
   * Sessions whose content is unchanged but whose rows of these provenance tables are staged (a
   * relocation): only those tables' partitions are rewritten for them.
   */
  provenanceOnly?: ProvenanceOnly;
  /**
   * Called at the first link the storage refuses, before the run's diagnostics and ledger files
   * are written, so it can still stage what the run says about it.
   */
  onLinkRefused?: (refusal: LinkRefusal) => Promise<void>;
}

/** Session IDs by provenance table (`source_instances`, `row_provenance`). */
export type ProvenanceOnly = ReadonlyMap<string, ReadonlySet<string>>;

/** `table_sessions`: the sessions whose rows of `table` are staged, with their bucket. */
async function stageTableSessions(input: StateInput, table: string): Promise<void> {
  await input.staging.run(
    'CREATE OR REPLACE TEMP TABLE table_sessions AS SELECT session_id, bucket FROM staged_sessions',
  );
  const ids = [...(input.provenanceOnly?.get(table) ?? [])];
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    await input.staging.run(
      `INSERT INTO table_sessions SELECT * FROM (VALUES ${chunk.map((id) => `(${sqlString(id)}, ${sqlString(bucketOf(id))})`).join(', ')}) WHERE col0 NOT IN (SELECT session_id FROM table_sessions)`,
    );
  }
}

class StateWriter {
  readonly dir: string;
  private refused = false;
  constructor(private readonly input: StateInput) {
    this.dir = input.layout.stateDir(input.runId);
  }

  /** The previous state's file, checked when the run opened; a digest the manifest lacks is recorded now. */
  async link(file: ManifestFile): Promise<ManifestFile> {
    const { layout, previous } = this.input;
    const target = join(this.dir, file.path);
    mkdirSync(dirname(target), { recursive: true, mode: outputModes().dir });
    const source = join(layout.stateDir(previous!.stateId), file.path);
    const refusal = linkOrCopy(source, target);
    if (refusal !== null && !this.refused) {
      this.refused = true;
      await this.input.onLinkRefused?.(refusal);
    }
    return file.sha256 === undefined ? { ...file, sha256: await fileSha256(target) } : file;
  }

  /** A small table sorted whole, as the exports do. */
  writeSorted(
    table: AnyTable,
    path: string,
    partition: string | null,
    select: string,
  ): Promise<ManifestFile> {
    return this.write(path, partition, (target) =>
      copyQueryTo(
        this.input.staging,
        `${select} ORDER BY ${orderByFor(table)}`,
        target,
        PARQUET_COPY_OPTIONS,
      ),
    );
  }

  /** `copy` writes the file at the given path and returns its row count. */
  async write(
    path: string,
    partition: string | null,
    copy: (target: string) => Promise<number>,
  ): Promise<ManifestFile> {
    const target = join(this.dir, path);
    mkdirSync(dirname(target), { recursive: true, mode: outputModes().dir });
    const rows = await copy(target);
    fsyncPath(target);
    return { path, partition, rows, bytes: statSync(target).size, sha256: await fileSha256(target) };
  }
}

async function contentTable(writer: StateWriter, input: StateInput, table: AnyTable): Promise<ManifestTable> {
  const previous = input.previous?.tables[table.name]?.files ?? [];
  await stageTableSessions(input, table.name);
  const touched = new Set([
    ...input.touchedBuckets,
    ...[...(input.provenanceOnly?.get(table.name) ?? [])].map(bucketOf),
  ]);
  const buckets = new Set([...previous.map((f) => f.partition!), ...touched]);
  const files: ManifestFile[] = [];
  await measureStagedSessions(input.staging, table, 'table_sessions');
  for (const bucket of [...buckets].sort()) {
    const old = previous.find((f) => f.partition === bucket);
    // Files of an older schema version or column set are rewritten in this build's columns, never linked.
    if (
      old &&
      !touched.has(bucket) &&
      input.previous!.schemaVersion === WAREHOUSE_SCHEMA_VERSION &&
      !(await lacksColumns(
        input.staging,
        table,
        stateFiles(input.layout, input.previous, table.name, bucket),
      ))
    ) {
      files.push(await writer.link(old));
      continue;
    }
    const staged = `SELECT ${table.columnNames.join(', ')} FROM ${table.name} WHERE session_id IN (SELECT session_id FROM table_sessions WHERE bucket = ${sqlString(bucket)})`;
    const kept = old
      ? `${readFilesSql(table, stateFiles(input.layout, input.previous, table.name, bucket))} WHERE session_id NOT IN (SELECT session_id FROM table_sessions)`
      : null;
    files.push(
      await writer.write(contentFilePath(table.name, bucket, input.runId), bucket, (target) =>
        copyOrderedPartition(input.staging, table, { bucket, staged, kept }, target, input.limits),
      ),
    );
  }
  return { partitionKey: 'bucket', files };
}

async function diagnostics(writer: StateWriter, input: StateInput): Promise<ManifestTable> {
  const table = diagnosticsTable as unknown as AnyTable;
  const files: ManifestFile[] = [];
  const previous = input.previous;
  for (const file of previous?.tables[table.name]?.files ?? []) {
    // An older build's partitions are rewritten in this build's file types (JSON as text).
    if (previous!.schemaVersion === WAREHOUSE_SCHEMA_VERSION) files.push(await writer.link(file));
    else {
      const source = readFilesSql(table, [join(input.layout.stateDir(previous!.stateId), file.path)]);
      const run = file.partition ?? '';
      files.push(
        await writer.writeSorted(table, diagnosticsFilePath(run, input.runId), file.partition, source),
      );
    }
  }
  const staged = Number(
    (await input.staging.runAndReadAll('SELECT count(*) FROM diagnostics')).getRows()[0]?.[0],
  );
  if (staged > 0) {
    // One partition per run: a run stages only its own; a rewritten archive stages every run's.
    const runs = await input.staging.runAndReadAll('SELECT DISTINCT run_id FROM diagnostics ORDER BY run_id');
    for (const [run] of runs.getRows()) {
      const select = `SELECT ${table.columnNames.join(', ')} FROM diagnostics WHERE run_id = ${sqlString(String(run))}`;
      files.push(
        await writer.writeSorted(table, diagnosticsFilePath(String(run), input.runId), String(run), select),
      );
    }
  }
  return { partitionKey: 'run', files };
}

/**
 * Leaves the undashed compact sessions of older builds (undashed-compact-sessions.ts) out of the new
 * state: their ledger rows go, and their buckets are rewritten without them. Returns the touched buckets.
 */
async function retireUndashedCompactSessions(input: StateInput): Promise<ReadonlySet<string>> {
  const { staging, layout, previous } = input;
  const candidates = (await staging.runAndReadAll(UNDASHED_COMPACT_CANDIDATES_SQL)).getRows();
  if (previous === null || candidates.length === 0) return input.touchedBuckets;
  const buckets = [...new Set(candidates.map((row) => bucketOf(String(row[0]))))];
  const files = buckets.flatMap((b) => stateFiles(layout, previous, sourceInstancesTable.name, b));
  const instances = `(${readFilesSql(sourceInstancesTable as unknown as AnyTable, files)} UNION ALL BY NAME SELECT * FROM ${sourceInstancesTable.name})`;
  const retired = (await staging.runAndReadAll(undashedCompactSessionsSql(instances))).getRows();
  if (retired.length === 0) return input.touchedBuckets;
  const ids = sqlList(retired.map((row) => String(row[0])));
  await staging.run(
    `INSERT INTO staged_sessions SELECT session_id, ${BUCKET_SQL} FROM (SELECT unnest(${ids}) AS session_id)`,
  );
  for (const table of [sessionSourcesTable.name, sessionStateTable.name])
    await staging.run(`DELETE FROM ${table} WHERE session_id IN (SELECT unnest(${ids}))`);
  return new Set([...input.touchedBuckets, ...retired.map((row) => bucketOf(String(row[0])))]);
}

/** Writes the state directory and returns its manifest (not yet written, not yet published). */
export async function buildState(staged: StateInput): Promise<DatasetManifest> {
  const input = { ...staged, touchedBuckets: await retireUndashedCompactSessions(staged) };
  const writer = new StateWriter(input);
  mkdirSync(writer.dir, { recursive: true, mode: outputModes().dir });
  const tables: Record<string, ManifestTable> = {};
  for (const table of CONTENT_TABLES as unknown as AnyTable[])
    tables[table.name] = await contentTable(writer, input, table);
  tables[diagnosticsTable.name] = await diagnostics(writer, input);
  for (const table of LEDGER_TABLES as unknown as AnyTable[]) {
    const select = `SELECT ${table.columnNames.join(', ')} FROM ${table.name}`;
    tables[table.name] = {
      partitionKey: null,
      files: [await writer.writeSorted(table, ledgerFilePath(table.name, input.runId), null, select)],
    };
  }
  return {
    format: MANIFEST_FORMAT,
    formatVersion: MANIFEST_FORMAT_VERSION,
    schemaVersion: WAREHOUSE_SCHEMA_VERSION,
    stateId: input.runId,
    runId: input.runId,
    previousState: input.previous?.stateId ?? null,
    publishedAtMs: input.publishedAtMs,
    partitioning: { key: 'bucket', function: 'sha256(session_id) first hex digit', buckets: BUCKET_COUNT },
    tables,
    ...(input.redaction ? { redaction: input.redaction } : {}),
  };
}
