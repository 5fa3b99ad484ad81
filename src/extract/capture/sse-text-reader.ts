/**
 * Reads a raw Cloud Agents v1 SSE text capture (`event:`/`id:`/`data:` frames separated by blank
 * lines). The raw form names no agent, so records carry the run from `status`/`result` payloads; an
 * id-less `status` frame after other frames marks a reconnection. A frame cut at EOF is a tail.
 */
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { parseStrictJson } from '../text/strict-json.js';
import { SourceEncodingInvalid } from '../text/strict-utf8.js';
import type { CloudRecord } from './capture-contribution.js';
import type { CloudRecordFile } from './cloud-capture-reader.js';
import { readPhysicalLines } from './line-source.js';

interface Frame {
  line: number;
  event: string | null;
  id: string | null;
  data: string[];
}

function parseData(lines: readonly string[]): unknown {
  const text = lines.join('\n');
  try {
    return parseStrictJson(text, 'capture');
  } catch (error) {
    if (error instanceof SourceEncodingInvalid) throw error;
    return text;
  }
}

export function readSseTextFile(path: string, limits: ReadLimits, counters: ReadCounters): CloudRecordFile {
  const records: CloudRecord[] = [];
  let frame: Frame | null = null;
  let connection = 1;
  let framesInConnection = 0;
  let lastId: string | null = null;
  let resumedFrom: string | null = null;
  let runId: string | null = null;
  let partialTail = false;
  const dispatch = (done: Frame): void => {
    const event = done.event ?? 'message';
    const data = parseData(done.data);
    if (event === 'status' && done.id === null && framesInConnection > 0) {
      connection++;
      framesInConnection = 0;
      resumedFrom = lastId;
    }
    const payloadRun = (data as { runId?: unknown } | null)?.runId;
    if (typeof payloadRun === 'string' && payloadRun.length > 0) runId = payloadRun;
    records.push({
      line: done.line,
      kind: 'sse',
      agentId: null,
      runId,
      connection,
      resumedFrom: connection > 1 ? resumedFrom : null,
      endpoint: null,
      event,
      id: done.id,
      data,
      body: null,
      receivedAt: null,
      unknownFields: null,
    });
    framesInConnection++;
    if (done.id !== null) lastId = done.id;
  };
  for (const line of readPhysicalLines(path, limits, counters)) {
    if (!line.terminated) partialTail = true;
    if (line.text.length === 0) {
      if (frame !== null && (frame.data.length > 0 || frame.event !== null)) dispatch(frame);
      frame = null;
      continue;
    }
    if (line.text.startsWith(':')) continue;
    const colon = line.text.indexOf(':');
    const field = colon === -1 ? line.text : line.text.slice(0, colon);
    const value = colon === -1 ? '' : line.text.slice(colon + 1).replace(/^ /, '');
    frame ??= { line: line.index + 1, event: null, id: null, data: [] };
    if (field === 'event') frame.event = value;
    else if (field === 'id') frame.id = value;
    else if (field === 'data') frame.data.push(value);
  }
  if (frame !== null) partialTail = true;
  return { records, malformedLines: [], partialTail };
}
