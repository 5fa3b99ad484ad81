/**
 * Reads a Cursor CLI `stream-json` (NDJSON) or `json` capture. Validates before anything is loaded:
 * one constant `session_id` per file and no declared unknown major schema version.
 */
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import type { CliCapture, CliRecord } from './capture-contribution.js';
import { CaptureSchemaUnsupported, CaptureSessionIdChanged } from './capture-rejection.js';
import { declaredMajor, jsonLines } from './json-lines.js';
import { str } from './json-values.js';

export const CLI_SCHEMA_MAJOR = '1';

export async function readCliCapture(
  path: string,
  limits: ReadLimits,
  counters: ReadCounters,
): Promise<CliCapture | null> {
  const records: CliRecord[] = [];
  const malformedLines: number[] = [];
  let partialTail = false;
  let sessionId: string | null = null;
  for await (const line of jsonLines(path, limits, counters)) {
    if (line.kind === 'tail') partialTail = true;
    else if (line.kind === 'malformed') malformedLines.push(line.line);
    else {
      const event = line.record;
      const major = declaredMajor(event.schema_version ?? event.schemaVersion);
      if (major !== null && major !== CLI_SCHEMA_MAJOR)
        throw new CaptureSchemaUnsupported('cli-stream', major);
      // An empty ID names no session, as in the Cloud readers: it would merge unrelated captures.
      const named = str(event.session_id);
      if (named !== null) {
        if (sessionId === null) sessionId = named;
        else if (named !== sessionId) throw new CaptureSessionIdChanged('cli-stream', { line: line.line });
      }
      records.push({ line: line.line, event });
    }
  }
  return sessionId === null ? null : { sessionId, records, malformedLines, partialTail };
}
