/**
 * Named points of a run where a crash test may inject a fault: each is published on the
 * `cursor-etl:fault-point` diagnostics channel, which nothing in the product subscribes to (the test
 * preload `tests/helpers/fault-after.ts` does). Names are stable (docs/operations.md).
 */
import { channel } from 'node:diagnostics_channel';

export const FAULT_POINTS = [
  'run-begun',
  'session-hydrated',
  'batch-begun',
  'batch-deleted',
  'batch-appended',
  'batch-ledger-written',
  'batch-committed',
  'final-ledger-written',
  'diagnostics-recorded',
  'run-finished',
  'parquet-state-built',
  'export-published',
  'prices-staged',
] as const;

export type FaultPoint = (typeof FAULT_POINTS)[number];

export const FAULT_POINT_CHANNEL = 'cursor-etl:fault-point';

const points = channel(FAULT_POINT_CHANNEL);

export function faultPoint(point: FaultPoint): void {
  if (points.hasSubscribers) points.publish(point);
}
