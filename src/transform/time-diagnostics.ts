/** Rejected source time values → one `TIME_VALUE_UNKNOWN` per field and reason, with a count. */
import { type Diagnostic, diagnostic } from '../shared/diagnostic.js';
import type { TimeProblem } from '../shared/time/read-instant.js';

export function timeDiagnostics(problems: readonly TimeProblem[], sessionId: string): Diagnostic[] {
  const counts = new Map<string, { problem: TimeProblem; count: number }>();
  for (const problem of problems) {
    const key = `${problem.field}\u0000${problem.reason}`;
    const seen = counts.get(key);
    if (seen) seen.count++;
    else counts.set(key, { problem, count: 1 });
  }
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, { problem, count }]) =>
      diagnostic(
        'TIME_VALUE_UNKNOWN',
        'A source time value is not a time; the field is unknown',
        { field: problem.field, reason: problem.reason, count },
        { sessionId },
      ),
    );
}
