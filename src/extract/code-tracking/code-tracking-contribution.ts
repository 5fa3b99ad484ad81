/**
 * What the AI code tracking reader (cursor-formats §4) hands to the transform stage for one
 * conversation: its summary row and AI line attribution as stored, cells typed by the transform.
 */
import type { SdkCell } from '../sdk/sdk-contribution.js';
import type { Contribution } from '../source-adapter.js';

export type TrackingRow = Readonly<Record<string, SdkCell>>;

export interface CodeTrackingData {
  status: 'read' | 'failed';
  /** The `conversation_summaries` row, or null (the table is often empty). */
  summary: TrackingRow | null;
  /** `ai_code_hashes` grouped by request, file, source and model: one row per group with `lines`. */
  attribution: TrackingRow[];
  deletedFiles: TrackingRow[];
}

export type CodeTrackingContribution = Contribution<'ai-code-tracking', CodeTrackingData>;
