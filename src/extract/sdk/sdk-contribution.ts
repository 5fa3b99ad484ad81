/**
 * What the SDK agent store extractor (cursor-formats §3) hands to the transform stage for one agent:
 * its `index.db` rows as stored, cell by cell. Typing and JSON parsing happen in the transform, so
 * a wrongly typed field becomes unknown there with a diagnostic, never a default here.
 */
import type { Contribution } from '../source-adapter.js';

/** One SQLite cell: text, a number, NULL, or a value of another storage class (kept as its class). */
export type SdkCell = string | number | null | { storageClass: 'blob' | 'integer-overflow' };

/** A row by column name; columns the database lacks are absent (older `runs` schemas). */
export type SdkRow = Readonly<Record<string, SdkCell>>;

export interface SdkEventRow {
  /** SQLite rowid inside `run_events`: the event's record locator. */
  rowid: number;
  cells: SdkRow;
}

export interface SdkRunRows {
  rowid: number;
  cells: SdkRow;
  events: SdkEventRow[];
}

export interface SdkAgentData {
  /** `read`: every row was read; `failed`: the database or a read limit cut the read short. */
  status: 'read' | 'failed';
  /** The agent row, or null when it vanished between catalog and hydration. */
  agent: SdkRow | null;
  runs: SdkRunRows[];
  /** Which optional `runs` columns the database has (`request_id`, `usage_json`). */
  runColumns: readonly string[];
}

export type SdkAgentContribution = Contribution<'sdk-agent-store', SdkAgentData>;
