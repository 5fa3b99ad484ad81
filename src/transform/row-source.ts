/**
 * Record locators of `row_provenance`: where inside its source a message or tool call was read.
 * A locator names the record, never a file, so moving the data changes no row.
 */
import type { SessionOccurrence } from '../extract/source-adapter.js';
import type { RowSource } from './session-view.js';

/** A record of `occurrence` at `locator` (a backup occurrence prefixes its entry name). */
export function rowSource(
  occurrence: Pick<SessionOccurrence, 'representation' | 'occurrenceRef' | 'recordPrefix'>,
  locator: string,
  frameIndex: number | null = null,
  sourceFrameIndex: number | null = null,
): RowSource {
  return {
    representation: occurrence.representation,
    occurrenceRef: occurrence.occurrenceRef,
    locator: `${occurrence.recordPrefix ?? ''}${locator}`,
    frameIndex,
    sourceFrameIndex: sourceFrameIndex === frameIndex ? null : sourceFrameIndex,
    chosen: true,
  };
}

/** A JSONL record by its zero-based physical frame. */
export function frameSource(
  occurrence: Pick<SessionOccurrence, 'representation' | 'occurrenceRef' | 'recordPrefix'>,
  kind: string,
  frameIndex: number,
  sourceFrameIndex: number | null = null,
): RowSource {
  return rowSource(occurrence, `${kind}:frame:${frameIndex}`, frameIndex, sourceFrameIndex);
}

/** The same sources, no longer the ones whose content the row holds. */
export function notChosen(sources: readonly RowSource[]): RowSource[] {
  return sources.map((source) => ({ ...source, chosen: false }));
}
