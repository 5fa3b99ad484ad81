/**
 * The manifest that makes a published state self-describing: its tables with their files (relative
 * paths, row counts, sizes, sha256 digests, partition), the schema version and the run that published it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { IntegrityError } from '../../shared/errors.js';
import { assertNotNewer } from '../duckdb/warehouse-version.js';
import { writeFileDurably } from '../fs/durable-file.js';
import type { DatasetLayout } from './dataset-layout.js';

export const MANIFEST_FORMAT = 'cursor-etl.parquet-dataset';
export const MANIFEST_FORMAT_VERSION = 1;

export interface ManifestFile {
  path: string;
  partition: string | null;
  rows: number;
  bytes: number;
  /** Hex SHA-256 of the file's bytes; absent only in manifests written before digests were recorded. */
  sha256?: string;
}

export interface ManifestTable {
  partitionKey: 'bucket' | 'run' | null;
  files: ManifestFile[];
}

export interface DatasetManifest {
  format: typeof MANIFEST_FORMAT;
  formatVersion: number;
  schemaVersion: number;
  stateId: string;
  runId: string;
  previousState: string | null;
  publishedAtMs: number;
  partitioning: { key: 'bucket'; function: 'sha256(session_id) first hex digit'; buckets: number };
  tables: Record<string, ManifestTable>;
  /** The warehouse's redaction policy (src/shared/redaction-policy.ts); absent when it has none. */
  redaction?: unknown;
}

function corrupt(reason: string): IntegrityError {
  return new IntegrityError('DATASET_MANIFEST_INVALID', 'The Parquet dataset manifest is unreadable', {
    reason,
  });
}

export function readManifest(layout: DatasetLayout, stateId: string): DatasetManifest {
  let manifest: DatasetManifest;
  try {
    manifest = JSON.parse(readFileSync(layout.manifestFile(stateId), 'utf8')) as DatasetManifest;
  } catch {
    throw corrupt('unparseable');
  }
  if (manifest.format !== MANIFEST_FORMAT || typeof manifest.tables !== 'object')
    throw corrupt('not-a-manifest');
  assertNotNewer(manifest.schemaVersion);
  if (manifest.formatVersion > MANIFEST_FORMAT_VERSION) throw corrupt('newer-format');
  return manifest;
}

/** The published state id, or null for a dataset that has never been published. */
export function readCurrentStateId(layout: DatasetLayout): string | null {
  if (!existsSync(layout.currentPointer)) return null;
  const id = readFileSync(layout.currentPointer, 'utf8').trim();
  if (!/^[A-Za-z0-9-]+$/.test(id)) throw corrupt('bad-current-pointer');
  return id;
}

export function readCurrentManifest(layout: DatasetLayout): DatasetManifest | null {
  const id = readCurrentStateId(layout);
  return id === null ? null : readManifest(layout, id);
}

export function writeManifest(layout: DatasetLayout, manifest: DatasetManifest): void {
  writeFileDurably(layout.manifestFile(manifest.stateId), `${JSON.stringify(manifest, null, 2)}\n`);
}
