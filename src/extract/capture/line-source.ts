/**
 * Streaming physical-line reader for the text captures that are not JSONL (raw SSE, Markdown),
 * under the same Source Read Limits v1 bounds as the JSONL frame scanner: lines are read in fixed
 * chunks, never the whole file, and every line keeps its physical index (never renumbered).
 */
import { closeSync, readSync } from 'node:fs';
import { openRegularFileSync } from '../fs/open-regular-file.js';
import { checkLimit } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { decodeStrictUtf8 } from '../text/strict-utf8.js';

export interface PhysicalLine {
  /** Zero-based physical line index (blank lines count). */
  index: number;
  text: string;
  /** False only for a final line without `\n`: a buffered tail the producer may still be writing. */
  terminated: boolean;
}

const CHUNK = 64 * 1024;

/** The typed-array search, not `Buffer#indexOf`: that one crosses into C++ per call, microseconds per blank line. */
const indexOfLf = (bytes: Uint8Array, from: number): number =>
  Uint8Array.prototype.indexOf.call(bytes, 0x0a, from);

function decodeLine(bytes: Buffer): string {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
  return decodeStrictUtf8(bytes.subarray(0, end), 'capture', false);
}

/**
 * Yields every physical line. `jsonlRecordBytes` bounds a nonempty line (CR/LF excluded),
 * `jsonlSourceBytes` the file (BOM included), `jsonlRecordCount` the nonempty lines. Invalid UTF-8
 * and crossed bounds throw; callers decide what a failure means for their source.
 */
export function* readPhysicalLines(
  path: string,
  limits: ReadLimits,
  counters: ReadCounters,
): Generator<PhysicalLine> {
  const fd = openRegularFileSync(path);
  try {
    const chunk = Buffer.alloc(CHUNK);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let total = 0;
    let index = 0;
    let records = 0;
    let first = true;
    /** The line made of the pending bytes (copied when it spans reads) and `last`, read in place. */
    const finish = (last: Buffer, terminated: boolean): PhysicalLine => {
      const bytes = pendingBytes === 0 ? last : Buffer.concat([...pending, last], pendingBytes + last.length);
      pending = [];
      pendingBytes = 0;
      // An empty or CR-only line is most of a blank run: no decoding, no copy.
      const text = bytes.length === 0 || (bytes.length === 1 && bytes[0] === 0x0d) ? '' : decodeLine(bytes);
      if (text.length > 0 && text.trim().length > 0)
        checkLimit('jsonlRecordCount', limits.jsonlRecordCount, ++records);
      return { index: index++, text, terminated };
    };
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK, null);
      if (read === 0) break;
      total += read;
      checkLimit('jsonlSourceBytes', limits.jsonlSourceBytes, total);
      counters.chargePayload(read);
      let view = chunk.subarray(0, read);
      if (first && view.length >= 3 && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf)
        view = view.subarray(3);
      first = false;
      let start = 0;
      for (let nl = indexOfLf(view, 0); nl !== -1; nl = indexOfLf(view, start)) {
        if (nl === start && pendingBytes === 0) {
          // An empty line (most of a blank run) needs no view, copy or decoding.
          yield { index: index++, text: '', terminated: true };
          start = nl + 1;
          continue;
        }
        const last = view.subarray(start, nl);
        if (last.length > 0) checkRecordBytes(pendingBytes + last.length, last, limits);
        yield finish(last, true);
        start = nl + 1;
      }
      if (start < view.length) {
        pending.push(Buffer.from(view.subarray(start)));
        pendingBytes += view.length - start;
        checkRecordBytes(pendingBytes, pending[pending.length - 1], limits);
      }
    }
    if (pendingBytes > 0) yield finish(Buffer.alloc(0), false);
  } finally {
    closeSync(fd);
  }
}

function checkRecordBytes(bytes: number, last: Buffer | undefined, limits: ReadLimits): void {
  if (bytes <= limits.jsonlRecordBytes) return;
  // A trailing CR belongs to the line ending, not the record.
  const crlf = last !== undefined && last.length > 0 && last[last.length - 1] === 0x0d ? 1 : 0;
  checkLimit('jsonlRecordBytes', limits.jsonlRecordBytes, bytes - crlf);
}
