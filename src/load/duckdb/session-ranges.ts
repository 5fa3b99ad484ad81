/**
 * Splits sessions, in warehouse order, into consecutive ranges of bounded row count, so a reader
 * holds one range's rows at a time whatever the corpus size, and selects each range by its first
 * and last ID (a predicate DuckDB prunes by zone maps and Parquet row-group statistics).
 */
export interface SessionWeight {
  sessionId: string;
  rows: number;
}

export interface SessionRange {
  first: string;
  last: string;
  sessionIds: string[];
}

/** A session larger than `maxRows` gets a range of its own; no range is ever empty. */
export function sessionRanges(sessions: readonly SessionWeight[], maxRows: number): SessionRange[] {
  const ranges: SessionRange[] = [];
  let current: string[] = [];
  let rows = 0;
  const close = (): void => {
    if (current.length === 0) return;
    ranges.push({ first: current[0]!, last: current[current.length - 1]!, sessionIds: current });
    current = [];
    rows = 0;
  };
  for (const session of sessions) {
    if (rows > 0 && rows + session.rows > maxRows) close();
    current.push(session.sessionId);
    rows += session.rows;
  }
  close();
  return ranges;
}
