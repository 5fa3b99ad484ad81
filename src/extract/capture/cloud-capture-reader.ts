/**
 * Reads Cloud Agents v1 capture records (`"capture": "cursor-cloud-v1"` JSONL, see docs/captures.md).
 * Every record is kept verbatim; unknown fields are preserved. A declared other major
 * (`cursor-cloud-v2`) refuses the whole file before anything is loaded.
 */
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import type { CloudRecord, JsonObject } from './capture-contribution.js';
import { CaptureSchemaUnsupported } from './capture-rejection.js';
import { jsonLines } from './json-lines.js';
import { obj, str } from './json-values.js';

export const CLOUD_CAPTURE_TAG = 'cursor-cloud-v1';

const KNOWN_FIELDS = new Set([
  'capture',
  'kind',
  'endpoint',
  'receivedAt',
  'body',
  'agentId',
  'runId',
  'connection',
  'resumedFrom',
  'event',
  'id',
  'data',
]);

export interface CloudRecordFile {
  records: CloudRecord[];
  malformedLines: number[];
  partialTail: boolean;
}

/** The agent a REST record is about: its endpoint path, else the body's agent. */
export function restAgentId(endpoint: string | null, body: unknown): string | null {
  const fromPath = endpoint === null ? null : /\/v\d+\/agents\/([^/?\s]+)/.exec(endpoint)?.[1];
  return fromPath ?? str(obj(obj(body)?.agent)?.id) ?? str(obj(body)?.agentId) ?? null;
}

function restRunId(endpoint: string | null, body: unknown): string | null {
  const fromPath = endpoint === null ? null : /\/runs\/([^/?\s]+)/.exec(endpoint)?.[1];
  return fromPath ?? str(obj(obj(body)?.run)?.id) ?? null;
}

function toRecord(line: number, raw: JsonObject): CloudRecord {
  const unknown = Object.fromEntries(Object.entries(raw).filter(([key]) => !KNOWN_FIELDS.has(key)));
  const kind = typeof raw.kind === 'string' ? raw.kind : 'unknown';
  const endpoint = str(raw.endpoint);
  return {
    line,
    kind,
    agentId: str(raw.agentId) ?? (kind === 'rest' ? restAgentId(endpoint, raw.body) : null),
    runId: str(raw.runId) ?? (kind === 'rest' ? restRunId(endpoint, raw.body) : null),
    connection: typeof raw.connection === 'number' ? raw.connection : null,
    resumedFrom: str(raw.resumedFrom),
    endpoint,
    event: str(raw.event),
    id: str(raw.id),
    data: raw.data ?? null,
    body: raw.body ?? null,
    receivedAt: str(raw.receivedAt),
    unknownFields: Object.keys(unknown).length > 0 ? unknown : null,
  };
}

export async function readCloudCaptureFile(
  path: string,
  limits: ReadLimits,
  counters: ReadCounters,
): Promise<CloudRecordFile> {
  const records: CloudRecord[] = [];
  const malformedLines: number[] = [];
  let partialTail = false;
  for await (const line of jsonLines(path, limits, counters)) {
    if (line.kind === 'tail') partialTail = true;
    else if (line.kind === 'malformed') malformedLines.push(line.line);
    else if (line.record.capture !== CLOUD_CAPTURE_TAG) {
      const tag = String(line.record.capture ?? '');
      if (/^cursor-cloud-v\d+/.test(tag)) throw new CaptureSchemaUnsupported('cloud-capture', tag);
      malformedLines.push(line.line);
    } else records.push(toRecord(line.line, line.record));
  }
  return { records, malformedLines, partialTail };
}
