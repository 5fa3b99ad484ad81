/**
 * The on-disk layout of a Parquet dataset (docs/parquet.md): immutable state directories under
 * `states/`, the `CURRENT` pointer file naming the published one (replacing it is the commit
 * point), the writer's `staging/<run>/` and `writer.lock`.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { IoError } from '../../shared/errors.js';

/** 16 buckets: a one-session change rewrites 1/16 of each content table, and small datasets stay few files. */
export const BUCKET_COUNT = 16;

/** The partition of a session: the first hex digit of SHA-256 of its byte-exact ID. */
export function bucketOf(sessionId: string): string {
  return createHash('sha256').update(sessionId, 'utf8').digest('hex').slice(0, 1);
}

/** The same function in DuckDB SQL (its `sha256` hashes the UTF-8 bytes and returns lowercase hex). */
export const BUCKET_SQL = 'substr(sha256(session_id), 1, 1)';

/** A `parquet:` target names a directory; an existing file of another kind there is refused before any write. */
export function assertDatasetDirectory(root: string): void {
  const stats = statSync(root, { throwIfNoEntry: false });
  if (stats !== undefined && !stats.isDirectory()) {
    throw new IoError('WAREHOUSE_UNREADABLE', 'The Parquet target is not a directory', {
      reason: 'not-a-directory',
    });
  }
}

export class DatasetLayout {
  constructor(readonly root: string) {}

  get currentPointer(): string {
    return join(this.root, 'CURRENT');
  }
  get statesDir(): string {
    return join(this.root, 'states');
  }
  get stagingDir(): string {
    return join(this.root, 'staging');
  }
  /** `<dir>/writer`, whose run lock file is `<dir>/writer.lock`. */
  /** The imported price table (`etl prices import`): outside the states, so every state sees it. */
  get pricesFile(): string {
    return join(this.root, 'model_prices.parquet');
  }
  get lockBase(): string {
    return join(this.root, 'writer');
  }
  stateDir(stateId: string): string {
    return join(this.statesDir, stateId);
  }
  manifestFile(stateId: string): string {
    return join(this.stateDir(stateId), 'manifest.json');
  }
}

export function contentFilePath(table: string, bucket: string, runId: string): string {
  return `${table}/bucket=${bucket}/part-${runId}.parquet`;
}
/** A run's diagnostics, written by `writerId` (the run itself, or the state that rewrote them). */
export function diagnosticsFilePath(runId: string, writerId: string = runId): string {
  return `diagnostics/run=${runId}/part-${writerId}.parquet`;
}
export function ledgerFilePath(table: string, runId: string): string {
  return `${table}/part-${runId}.parquet`;
}
