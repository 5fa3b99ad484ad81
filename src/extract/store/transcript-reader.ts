/**
 * Reads one agent transcript into records through the JSONL frame scanner. Blank frames are
 * skipped, malformed frames and a partial tail are counted (never guessed at), and a limit or
 * encoding failure keeps the records read so far with a diagnostic: the transcript is then partial.
 */
import { statSync } from 'node:fs';
import type { DiagnosticSink } from '../../shared/diagnostic.js';
import { scanJsonlFrames } from '../jsonl/jsonl-frames.js';
import { SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { SourceEncodingInvalid } from '../text/strict-utf8.js';
import { parseLegacyTranscript } from './legacy-transcript.js';
import type { StoreSessionFacts, StoreTranscriptData, TranscriptRecord } from './store-contribution.js';

interface ReadEnv {
  limits: ReadLimits;
  counters: ReadCounters;
  sink: DiagnosticSink;
  scope: { sessionId: string; sourceRef: string };
}

export async function readTranscript(
  path: string,
  format: 'jsonl' | 'txt',
  facts: StoreSessionFacts,
  env: ReadEnv,
): Promise<StoreTranscriptData> {
  const data: StoreTranscriptData = {
    format,
    readState: 'read',
    records: [],
    malformedLines: 0,
    partialTail: false,
    cutShort: false,
    facts,
  };
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return { ...data, readState: 'missing' };
  if (format === 'txt') return { ...data, ...(await parseLegacyTranscript(path, env.limits)) };
  const records: TranscriptRecord[] = [];
  try {
    for await (const frame of scanJsonlFrames(path, { limits: env.limits })) {
      env.counters.chargePayload(frame.byteEnd - frame.byteStart);
      if (frame.kind === 'parsed' && frame.record) records.push({ line: frame.line, record: frame.record });
      else if (frame.kind === 'malformed') data.malformedLines += 1;
      else if (frame.kind === 'partial') data.partialTail = true;
    }
  } catch (error) {
    if (error instanceof SourceLimitExceeded || error instanceof SourceEncodingInvalid) {
      env.sink.add(error.asDiagnostic(env.scope));
      data.cutShort = true;
    } else if ((error as NodeJS.ErrnoException).syscall !== undefined) {
      // The file vanished or cannot be opened: a fact about this source, not a bug.
      return { ...data, records, readState: 'unreadable' };
    } else throw error;
  }
  return { ...data, records };
}
