/**
 * Builds the next published state: touched partitions are rewritten with DuckDB's Parquet writer;
 * every other file is hard-linked from the previous state, or copied and flushed where the storage
 * refuses links. `previous` holds only files checked against their digests when the run opened.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { LEDGER_TABLES } from '../../../schemas/ledger-tables.js';
import { CONTENT_TABLES, diagnosticsTable } from '../../../schemas/tables.js';
import { outputModes } from '../../shared/output-permissions.js';
import type { RedactionPolicy } from '../../shared/redaction-policy.js';
import { sqlString } from '../duckdb/sql-string.js';
import { WAREHOUSE_SCHEMA_VERSION } from '../duckdb/warehouse-version.js';
import { copyQueryTo, PARQUET_COPY_OPTIONS } from '../export/copy-export.js';
import { type AnyTable, orderByFor } from '../export/export-tables.js';
import { fsyncPath } from '../fs/durable-file.js';
import {
  BUCKET_COUNT,
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
import { linkOrCopy } from './link-or-copy.js';
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
}

class StateWriter {
  readonly dir: string;
  constructor(private readonly input: StateInput) {
    this.dir = input.layout.stateDir(input.runId);
  }

  /** The previous state's file, checked when the run opened; a digest the manifest lacks is recorded now. */
  async link(file: ManifestFile): Promise<ManifestFile> {
    const { layout, previous } = this.input;
    const target = join(this.dir, file.path);
    mkdirSync(dirname(target), { recursive: true, mode: outputModes().dir });
    const source = join(layout.stateDir(previous!.stateId), file.path);
    linkOrCopy(source, target);
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
  const buckets = new Set([...previous.map((f) => f.partition!), ...input.touchedBuckets]);
  const files: ManifestFile[] = [];
  await measureStagedSessions(input.staging, table);
  for (const bucket of [...buckets].sort()) {
    const old = previous.find((f) => f.partition === bucket);
    // Files of an older schema version are rewritten (in the current column types), never linked.
    if (
      old &&
      !input.touchedBuckets.has(bucket) &&
      input.previous!.schemaVersion === WAREHOUSE_SCHEMA_VERSION
    ) {
      files.push(await writer.link(old));
      continue;
    }
    const staged = `SELECT ${table.columnNames.join(', ')} FROM ${table.name} WHERE session_id IN (SELECT session_id FROM staged_sessions WHERE bucket = ${sqlString(bucket)})`;
    const kept = old
      ? `${readFilesSql(table, stateFiles(input.layout, input.previous, table.name, bucket), input.previous!.schemaVersion)} WHERE session_id NOT IN (SELECT session_id FROM staged_sessions)`
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
  for (const file of input.previous?.tables[table.name]?.files ?? []) files.push(await writer.link(file));
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

/** Writes the state directory and returns its manifest (not yet written, not yet published). */
export async function buildState(input: StateInput): Promise<DatasetManifest> {
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
