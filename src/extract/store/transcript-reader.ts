/**
 * Reads one agent transcript into records through the JSONL frame scanner. Blank frames are
 * skipped, malformed frames and a partial tail counted; a limit or encoding failure keeps the
 * records read so far (partial). An unopenable transcript is reported, never skipped.
 */
import { type Stats, statSync } from 'node:fs';
import type { DiagnosticSink } from '../../shared/diagnostic.js';
import { scanJsonlFramesSync } from '../jsonl/jsonl-frames.js';
import { SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { SourceEncodingInvalid } from '../text/strict-utf8.js';
import { parseLegacyTranscript } from './legacy-transcript.js';
import type { StoreSessionFacts, StoreTranscriptData, TranscriptRecord } from './store-contribution.js';
import type { TranscriptEntry } from './store-inventory.js';
import { unreadableStoreSource } from './store-source-diagnostics.js';

interface ReadEnv {
  limits: ReadLimits;
  counters: ReadCounters;
  sink: DiagnosticSink;
  scope: { sessionId: string; sourceRef: string };
}

export async function readTranscript(
  entry: Pick<TranscriptEntry, 'path' | 'problem'>,
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
  const unreadable = (reason: string): StoreTranscriptData => {
    env.sink.add(unreadableStoreSource('store-transcript', reason, env.scope));
    return { ...data, readState: 'unreadable' };
  };
  // Discovery found a FIFO, device, loop or a link out of the root there: it is never opened.
  if (entry.problem !== null) return unreadable(entry.problem);
  const path = entry.path;
  let stat: Stats | undefined;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    return unreadable((error as NodeJS.ErrnoException).code ?? 'stat-failed');
  }
  // Discovered, then gone before the read: the view lacks a source the run counted on.
  if (stat === undefined) return unreadable('ENOENT');
  // Replaced since discovery by a FIFO or device: never opened, so it cannot block the run.
  if (!stat.isFile()) return unreadable('not-a-regular-file');
  const records: TranscriptRecord[] = [];
  try {
    if (format === 'txt') records.push(...(await parseLegacyTranscript(path, env.limits)).records);
    else
      for (const frame of scanJsonlFramesSync(path, { limits: env.limits })) {
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
      return unreadable((error as NodeJS.ErrnoException).code ?? 'open-failed');
    } else throw error;
  }
  return { ...data, records };
}
