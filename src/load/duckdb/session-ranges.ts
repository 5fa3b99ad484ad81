/**
 * Splits sessions, in warehouse order, into consecutive ranges of bounded weight (rows or bytes), so
 * a reader or writer holds one range at a time whatever the corpus size, and selects each range by
 * its first and last ID (a predicate DuckDB prunes by zone maps and Parquet row-group statistics).
 */
export interface SessionWeight {
  sessionId: string;
  weight: number;
}

export interface SessionRange {
  first: string;
  last: string;
  sessionIds: string[];
}

/** A session heavier than `maxWeight` gets a range of its own; no range is ever empty. */
export function sessionRanges(sessions: readonly SessionWeight[], maxWeight: number): SessionRange[] {
  const ranges: SessionRange[] = [];
  let current: string[] = [];
  let weight = 0;
  const close = (): void => {
    if (current.length === 0) return;
    ranges.push({ first: current[0]!, last: current[current.length - 1]!, sessionIds: current });
    current = [];
    weight = 0;
  };
  for (const session of sessions) {
    if (current.length > 0 && weight + session.weight > maxWeight) close();
    current.push(session.sessionId);
    weight += session.weight;
  }
  close();
  return ranges;
}
