/**
 * Crash-test hook: `CURSOR_ETL_FAULT_AFTER=<point>:<n>` kills the process with SIGKILL the n-th time
 * (1-based) the named point is reached, so tests can prove a crash anywhere leaves the warehouse
 * consistent. Point names are stable (documented in docs/operations.md); unset, it costs one lookup.
 */
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
] as const;

export type FaultPoint = (typeof FAULT_POINTS)[number];

const hits = new Map<FaultPoint, number>();
let armed: { point: string; after: number } | null | undefined;

function parseSetting(): { point: string; after: number } | null {
  const raw = process.env.CURSOR_ETL_FAULT_AFTER;
  const match = raw === undefined ? null : /^([a-z-]+):([1-9]\d*)$/.exec(raw);
  return match ? { point: match[1]!, after: Number(match[2]) } : null;
}

export function faultPoint(point: FaultPoint): void {
  if (armed === undefined) armed = parseSetting();
  if (armed === null || armed.point !== point) return;
  const count = (hits.get(point) ?? 0) + 1;
  hits.set(point, count);
  if (count === armed.after) process.kill(process.pid, 'SIGKILL');
}
