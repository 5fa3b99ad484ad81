/**
 * The `row_provenance` rows of a finalized session: every source record of each message and tool
 * call, joined to its source instance by ordinal. Provenance only: never digested, never an identity.
 */
import type { MessageRow, RowProvenanceRow, SourceInstanceRow, ToolCallRow } from '../../schemas/tables.js';
import type { RowSource, ViewMessage } from './session-view.js';

export function rowProvenanceRows(
  sessionId: string,
  viewMessages: readonly ViewMessage[],
  messages: readonly MessageRow[],
  toolCalls: readonly ToolCallRow[],
  instances: readonly SourceInstanceRow[],
): RowProvenanceRow[] {
  const ordinals = new Map(
    instances.map((i) => [`${i.representation}\u0000${i.occurrence_ref}`, i.instance_ordinal]),
  );
  const rows: RowProvenanceRow[] = [];
  const seen = new Set<string>();
  const add = (rowKind: RowProvenanceRow['row_kind'], rowId: string, sources: readonly RowSource[]): void => {
    for (const source of sources) {
      const ordinal = ordinals.get(`${source.representation}\u0000${source.occurrenceRef}`);
      if (ordinal === undefined) continue;
      const key = `${rowKind}\u0000${rowId}\u0000${ordinal}\u0000${source.locator}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push({
        session_id: sessionId,
        row_kind: rowKind,
        row_id: rowId,
        instance_ordinal: ordinal,
        locator: source.locator,
        frame_index: source.frameIndex,
        source_frame_index: source.sourceFrameIndex,
        chosen: source.chosen,
      });
    }
  };
  let call = 0;
  viewMessages.forEach((message, index) => {
    add('message', messages[index]!.message_id, message.sources);
    for (const tool of message.toolCalls) {
      const sources = tool.sources !== undefined && tool.sources.length > 0 ? tool.sources : message.sources;
      add('tool_call', toolCalls[call++]!.archive_key, sources);
    }
  });
  return rows;
}
