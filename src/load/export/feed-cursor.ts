/**
 * The writer side of `etl export --changes`: the target's run lock is held from the read of the
 * window to the cursor's advance, so no run commits in between, and the cursor moves only once the
 * export is published. A Parquet dataset publishes the moved cursor as a state of its own.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { acquireRunLock } from '../../shared/process/run-lock.js';
import { type ConsumerAck, writeConsumerCursor } from '../duckdb/consumer-cursor.js';
import { DuckDbTarget } from '../duckdb/duckdb-target.js';
import type { TargetLocation } from '../open-target.js';
import { DatasetLayout } from '../parquet/dataset-layout.js';
import { readCurrentStateId } from '../parquet/dataset-manifest.js';
import { ParquetTarget } from '../parquet/parquet-target.js';
import { guardWrite } from '../write-failure.js';

export type Acknowledge = (ack: ConsumerAck) => Promise<void>;

async function acknowledgeDuckDb(path: string, ack: ConsumerAck): Promise<void> {
  const target = await DuckDbTarget.open(path);
  try {
    await target.editLedger((connection) => writeConsumerCursor(connection, ack));
  } finally {
    await target.close();
  }
}

/** Runs `work` under the target's writer lock; a missing target is left for the read to report. */
export async function withFeedCursor<T>(
  location: TargetLocation,
  work: (acknowledge: Acknowledge) => Promise<T>,
): Promise<T> {
  if (location.kind === 'duckdb') {
    if (!existsSync(location.path)) return work(async () => {});
    const lock = await guardWrite('duckdb', 'lock', () => acquireRunLock(location.path));
    try {
      return await work((ack) => acknowledgeDuckDb(location.path, ack));
    } finally {
      lock.release();
    }
  }
  if (readCurrentStateId(new DatasetLayout(location.path)) === null) return work(async () => {});
  const target = await ParquetTarget.open(location.path);
  try {
    return await work((ack) => {
      const stateId = `${new Date(ack.atMs).toISOString().replace(/[-:.]/g, '')}-feed-${randomUUID().slice(0, 8)}`;
      return target.publishLedgerEdit(stateId, ack.atMs, (connection) =>
        writeConsumerCursor(connection, ack),
      );
    });
  } finally {
    await target.close();
  }
}
