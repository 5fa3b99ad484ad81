/**
 * Typed reads of SDK `index.db` cells: a present value of another type is unknown and counted per
 * table, field and reason (`SDK_FIELD_INVALID`); a time that is not one is unknown
 * (`TIME_VALUE_UNKNOWN`).
 */
import type { SdkCell, SdkRow } from '../../extract/sdk/sdk-contribution.js';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { readTimeField, type TimeProblem } from '../../shared/time/read-instant.js';
import { timeDiagnostics } from '../time-diagnostics.js';

export type SdkTable = 'agents' | 'runs' | 'run_events';

/** The counters of one agent's unreadable fields. */
export class SdkFieldProblems {
  private readonly counts = new Map<string, number>();
  readonly times: TimeProblem[] = [];

  add(table: SdkTable, field: string, reason: 'wrong-type' | 'malformed-json'): void {
    const key = `${table}\u0000${field}\u0000${reason}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  diagnostics(sessionId: string): Diagnostic[] {
    const fields = [...this.counts]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, count]) => {
        const [table, field, reason] = key.split('\u0000') as [
          SdkTable,
          string,
          'wrong-type' | 'malformed-json',
        ];
        return diagnostic(
          'SDK_FIELD_INVALID',
          'SDK agent store values are not of their documented type; those fields are unknown',
          { table, field, reason, count },
          { sessionId },
        );
      });
    return [...fields, ...timeDiagnostics(this.times, sessionId)];
  }
}

/** Typed readers of one row's cells, counting what is present with another type. */
export class CellReader {
  constructor(
    private readonly row: SdkRow,
    private readonly table: SdkTable,
    readonly problems: SdkFieldProblems,
  ) {}

  private cell(field: string): SdkCell | undefined {
    return this.row[field];
  }

  text(field: string): string | null {
    const value = this.cell(field);
    if (value === null || value === undefined) return null;
    if (typeof value === 'string') return value;
    this.problems.add(this.table, field, 'wrong-type');
    return null;
  }

  integer(field: string): number | null {
    const value = this.cell(field);
    if (value === null || value === undefined) return null;
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    this.problems.add(this.table, field, 'wrong-type');
    return null;
  }

  /** ISO strings and epoch-ms integers are both stored (cursor-formats §3.2). */
  time(field: string): number | null {
    const value = this.cell(field);
    if (value !== null && typeof value === 'object') {
      this.problems.add(this.table, field, 'wrong-type');
      return null;
    }
    return readTimeField(value, `sdk.${this.table}.${field}`, this.problems.times);
  }

  /** A text column holding a JSON object, or null. */
  jsonObject(field: string): Record<string, unknown> | null {
    const text = this.text(field);
    if (text === null || text === '') return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.problems.add(this.table, field, 'malformed-json');
      return null;
    }
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
    this.problems.add(this.table, field, 'wrong-type');
    return null;
  }
}
