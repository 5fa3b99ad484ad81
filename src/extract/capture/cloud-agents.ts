/**
 * Splits a Cloud capture file into one capture per agent (session = agent), in first-seen order.
 * Records naming no agent belong to the file's only agent; with several agents they are counted,
 * never guessed. A raw SSE file names no agent: its session is keyed by the run it streamed.
 */
import type { CloudAgentCapture, CloudRecord } from './capture-contribution.js';
import type { CloudRecordFile } from './cloud-capture-reader.js';

export function splitCloudAgents(
  file: CloudRecordFile,
  format: CloudAgentCapture['format'],
): CloudAgentCapture[] {
  const base = { format, malformedLines: file.malformedLines, partialTail: file.partialTail };
  if (format === 'raw-sse') {
    const runId = file.records.find((record) => record.runId !== null)?.runId ?? null;
    return runId === null
      ? []
      : [{ ...base, sessionId: runId, agentIdKnown: false, records: file.records, unattributedRecords: 0 }];
  }
  const byAgent = new Map<string, CloudRecord[]>();
  const orphans: CloudRecord[] = [];
  for (const record of file.records) {
    if (record.agentId === null) orphans.push(record);
    else {
      const list = byAgent.get(record.agentId) ?? [];
      list.push(record);
      byAgent.set(record.agentId, list);
    }
  }
  const single = byAgent.size === 1;
  return [...byAgent].map(([agentId, records]) => ({
    ...base,
    sessionId: agentId,
    agentIdKnown: true,
    records: single ? [...records, ...orphans].sort((a, b) => a.line - b.line) : records,
    unattributedRecords: single ? 0 : orphans.length,
  }));
}
