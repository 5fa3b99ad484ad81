/** A change feed consumer's cursor in `etl_consumers`: it only moves forward, and counts exports. */
import type { DuckDBConnection } from '@duckdb/node-api';
import { consumersTable } from '../../../schemas/ledger-tables.js';
import { appendToTable } from './row-appender.js';

export interface ConsumerAck {
  consumer: string;
  toSeq: number;
  toRun: string | null;
  atMs: number;
}

export async function writeConsumerCursor(connection: DuckDBConnection, ack: ConsumerAck): Promise<void> {
  const stored = await connection.runAndReadAll(
    'SELECT acked_seq, acked_run, exports FROM etl_consumers WHERE consumer = $1',
    [ack.consumer],
  );
  const before = stored.getRowObjects()[0];
  const keep = before !== undefined && Number(before.acked_seq) > ack.toSeq;
  await connection.run('DELETE FROM etl_consumers WHERE consumer = $1', [ack.consumer]);
  await appendToTable(connection, consumersTable, [
    {
      consumer: ack.consumer,
      acked_seq: keep ? Number(before.acked_seq) : ack.toSeq,
      acked_run: keep ? (before.acked_run as string | null) : ack.toRun,
      acked_at: ack.atMs,
      exports: Number(before?.exports ?? 0) + 1,
    },
  ]);
}
