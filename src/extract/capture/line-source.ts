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
  /**
   * With `blankLinesAreNoRecords`: the bytes of a line of blank bytes alone whose text was not kept
   * because it is longer than `jsonlRecordBytes` (`text` is then empty); absent otherwise.
   */
  droppedBlankBytes?: number;
  /** With `blankLinesAreNoRecords`: how many identical blank lines this one stands for (absent: 1). */
  repeat?: number;
}

export interface PhysicalLineOptions {
  /**
   * A line of ASCII blank bytes alone (space, tab, CR, VT, FF) is no record, as in the JSONL frame
   * scanner: it crosses no `jsonlRecordBytes` bound, and past that bound its bytes are counted, not kept.
   * Identical short blank lines that follow one another in a read come as one line with `repeat`.
   */
  blankLinesAreNoRecords?: boolean;
}

const CHUNK = 64 * 1024;

/** The typed-array search, not `Buffer#indexOf`: that one crosses into C++ per call, microseconds per blank line. */
const indexOfLf = (bytes: Uint8Array, from: number): number =>
  Uint8Array.prototype.indexOf.call(bytes, 0x0a, from);

const isBlankByte = (byte: number): boolean =>
  byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0b || byte === 0x0c;

function allBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (!isBlankByte(bytes[i] as number)) return false;
  return true;
}

/** Longest blank line (LF included) whose repeats are coalesced. */
const REPEAT_BYTES = 64;

/** How many copies of `view[start, end)` follow one another from `start` on (at least 1). */
function repeats(view: Buffer, start: number, end: number): number {
  const length = end - start;
  let count = 1;
  for (let at = end; at + length <= view.length; at += length, count++)
    for (let i = 0; i < length; i++) if (view[at + i] !== view[start + i]) return count;
  return count;
}

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
  options: PhysicalLineOptions = {},
): Generator<PhysicalLine> {
  const blankExempt = options.blankLinesAreNoRecords === true;
  const fd = openRegularFileSync(path);
  try {
    const chunk = Buffer.alloc(CHUNK);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    /** Whether every byte of the current line so far is blank (only tracked when `blankExempt`). */
    let lineBlank = true;
    /** Bytes of a blank line not kept (over the record bound); 0 while its bytes are kept. */
    let dropped = 0;
    /** The last short blank line's bytes and text: a run of one spelling decodes once. */
    let lastBlank: { bytes: Buffer; text: string } | null = null;
    let total = 0;
    let index = 0;
    let records = 0;
    let first = true;
    const blankText = (bytes: Buffer): string => {
      if (lastBlank === null || !lastBlank.bytes.equals(bytes))
        lastBlank = { bytes: Buffer.from(bytes), text: decodeLine(bytes) };
      return lastBlank.text;
    };
    /** The line made of the pending bytes (copied when it spans reads) and `last`, read in place. */
    const finish = (last: Buffer, terminated: boolean): PhysicalLine => {
      if (dropped > 0) {
        const droppedBlankBytes = dropped + last.length;
        dropped = 0;
        lineBlank = true;
        return { index: index++, text: '', terminated, droppedBlankBytes };
      }
      const bytes = pendingBytes === 0 ? last : Buffer.concat([...pending, last], pendingBytes + last.length);
      const blank = blankExempt && lineBlank;
      pending = [];
      pendingBytes = 0;
      lineBlank = true;
      // An empty or CR-only line is most of a blank run: no decoding, no copy.
      if (bytes.length === 0 || (bytes.length === 1 && bytes[0] === 0x0d))
        return { index: index++, text: '', terminated };
      if (blank) return { index: index++, text: blankText(bytes), terminated };
      const text = decodeLine(bytes);
      if (text.trim().length > 0) checkLimit('jsonlRecordCount', limits.jsonlRecordCount, ++records);
      return { index: index++, text, terminated };
    };
    /** Bounds and classifies `part`, the current line's next bytes; false when they are not to be kept. */
    const admit = (part: Buffer): boolean => {
      if (part.length === 0) return true;
      if (blankExempt && lineBlank) lineBlank = allBlank(part);
      if (blankExempt && lineBlank) {
        if (dropped > 0) {
          dropped += part.length;
          return false;
        }
        if (pendingBytes + part.length > limits.jsonlRecordBytes + 1) {
          dropped = pendingBytes + part.length;
          pending = [];
          pendingBytes = 0;
          return false;
        }
        return true;
      }
      if (dropped > 0) {
        // A line that turned out not to be blank after its bytes were dropped is over the bound.
        checkLimit('jsonlRecordBytes', limits.jsonlRecordBytes, dropped + part.length);
      }
      checkRecordBytes(pendingBytes + part.length, part, limits);
      return true;
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
        if (
          blankExempt &&
          pendingBytes === 0 &&
          dropped === 0 &&
          nl - start < REPEAT_BYTES &&
          allBlank(view.subarray(start, nl))
        ) {
          // A run of one spelling of blank line is a byte comparison, not a line each.
          const repeat = repeats(view, start, nl + 1);
          const text = nl === start ? '' : blankText(view.subarray(start, nl));
          yield repeat === 1 ? { index, text, terminated: true } : { index, text, terminated: true, repeat };
          index += repeat;
          start += repeat * (nl + 1 - start);
          continue;
        }
        if (nl === start && pendingBytes === 0 && dropped === 0) {
          // An empty line (most of a blank run) needs no view, copy or decoding.
          yield { index: index++, text: '', terminated: true };
          start = nl + 1;
          continue;
        }
        const last = view.subarray(start, nl);
        yield finish(admit(last) ? last : Buffer.alloc(0), true);
        start = nl + 1;
      }
      if (start < view.length) {
        const rest = view.subarray(start);
        if (admit(rest)) {
          pending.push(Buffer.from(rest));
          pendingBytes += rest.length;
        }
      }
    }
    if (pendingBytes > 0 || dropped > 0) yield finish(Buffer.alloc(0), false);
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
