/**
 * Streaming JSONL frame scanner under Source Read Limits v1: one frame per non-blank LF-split line,
 * with its line number. Strict UTF-8, one BOM at byte 0 only, CR before LF stripped; a bound or bad
 * text throws mid-iteration.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegularFile, openRegularFileSync } from '../fs/open-regular-file.js';
import { checkLimit, SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import { parseStrictJson } from '../text/strict-json.js';
import { decodeStrictUtf8, SourceEncodingInvalid } from '../text/strict-utf8.js';

export type JsonlFrameKind = 'parsed' | 'malformed' | 'partial';

export interface JsonlFrame {
  /** 1-based physical line number; blank and broken lines keep their number. */
  line: number;
  /** Byte offset of the frame in the file (inclusive). */
  byteStart: number;
  /** Byte offset after the frame, including its LF when closed (exclusive). */
  byteEnd: number;
  /** True when the frame ends with LF. */
  closed: boolean;
  /**
   * `parsed`: closed and a JSON object; `malformed`: closed and not a JSON object; `partial`: the unterminated tail (its record is still parsed when it is a
   * JSON object, so the caller can decide how to treat it).
   */
  kind: JsonlFrameKind;
  /** The decoded JSON object, or null. */
  record: Record<string, unknown> | null;
}

export interface JsonlScanOptions {
  limits: Pick<ReadLimits, 'jsonlRecordBytes' | 'jsonlSourceBytes' | 'jsonlRecordCount'>;
  /** Read size; small values exercise records spanning reads in tests. */
  chunkBytes?: number;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf];
const DEFAULT_CHUNK = 64 * 1024;
const SYNC_CHUNK = 1024 * 1024;

/** Streams the frames of the JSONL file at `path`. */
export async function* scanJsonlFrames(path: string, options: JsonlScanOptions): AsyncGenerator<JsonlFrame> {
  const handle = await openRegularFile(path);
  try {
    yield* framesOf(readChunks(handle, options), options);
  } finally {
    await handle.close();
  }
}

/**
 * The frames of the JSONL file at `path`, read synchronously: for a caller that reads the whole file
 * anyway, an awaited read per chunk and a promise per frame cost more than the reads.
 */
export function* scanJsonlFramesSync(path: string, options: JsonlScanOptions): Generator<JsonlFrame> {
  const fd = openRegularFileSync(path);
  try {
    const splitter = new FrameSplitter(options.limits);
    for (const chunk of readChunksSync(fd, options)) yield* splitter.push(chunk);
    yield* splitter.end();
  } finally {
    closeSync(fd);
  }
}

interface ChunkReader {
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

/** Reads at most `jsonlSourceBytes + 1` bytes in total so the overflow byte is always observed. */
async function* readChunks(handle: ChunkReader, options: JsonlScanOptions): AsyncGenerator<Uint8Array> {
  const limit = options.limits.jsonlSourceBytes;
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK;
  let position = 0;
  for (;;) {
    const request = Math.min(chunkBytes, limit + 1 - position);
    const buffer = new Uint8Array(request);
    const { bytesRead } = await handle.read(buffer, 0, request, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    checkLimit('jsonlSourceBytes', limit, position);
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * `readChunks` with blocking reads; a file of up to `SYNC_CHUNK` bytes takes one read (and one
 * more to see its end), so no record spans two chunks and is copied to join them.
 */
function* readChunksSync(fd: number, options: JsonlScanOptions): Generator<Uint8Array> {
  const limit = options.limits.jsonlSourceBytes;
  const chunkBytes =
    options.chunkBytes ?? Math.min(SYNC_CHUNK, Math.max(DEFAULT_CHUNK, fstatSync(fd).size + 1));
  let position = 0;
  for (;;) {
    const request = Math.min(chunkBytes, limit + 1 - position);
    const buffer = Buffer.allocUnsafe(request);
    const bytesRead = readSync(fd, buffer, 0, request, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    checkLimit('jsonlSourceBytes', limit, position);
    yield buffer.subarray(0, bytesRead);
  }
}

/** ASCII whitespace other than LF (space, tab, VT, FF, CR): a line of only these holds no record. */
function isBlankByte(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === CR || byte === 0x0b || byte === 0x0c;
}

/**
 * Splits chunks into frames; exported for in-memory callers and tests. Blank bytes are skipped by
 * one loop without copying, so a run of blank lines of any spelling costs its bytes' scan and
 * counts toward `jsonlSourceBytes` only, as the contract's "nonempty record" bounds intend.
 */
export async function* framesOf(
  chunks: AsyncIterable<Uint8Array>,
  options: Pick<JsonlScanOptions, 'limits'>,
): AsyncGenerator<JsonlFrame> {
  const splitter = new FrameSplitter(options.limits);
  for await (const chunk of chunks) yield* splitter.push(chunk);
  yield* splitter.end();
}

/** The line state carried from chunk to chunk, shared by the streaming and the blocking scanner. */
class FrameSplitter {
  readonly #recordBytes: number;
  readonly #recordCount: number;
  /** Bytes of the current line from its first non-blank byte on. */
  #kept: Uint8Array[] = [];
  #keptBytes = 0;
  /** Absolute offsets of the current line and of its first non-blank byte (-1 while blank). */
  #frameStart = 0;
  #contentStart = -1;
  /** Absolute offset of the current chunk's first byte. */
  #base = 0;
  #line = 1;
  #records = 0;

  constructor(limits: JsonlScanOptions['limits']) {
    this.#recordBytes = limits.jsonlRecordBytes;
    this.#recordCount = limits.jsonlRecordCount;
  }

  *push(chunk: Uint8Array): Generator<JsonlFrame> {
    const length = chunk.length;
    const base = this.#base;
    let i = 0;
    while (i < length) {
      if (this.#contentStart === -1) {
        const byte = chunk[i] as number;
        if (byte === LF) {
          i += 1;
          this.#frameStart = base + i;
          this.#line += 1;
          continue;
        }
        if (isBlankByte(byte)) {
          i += 1;
          continue;
        }
        this.#contentStart = base + i;
      }
      const lf = chunk.indexOf(LF, i);
      const end = lf === -1 ? length : lf;
      this.#keep(chunk.subarray(i, end), base + end);
      if (lf === -1) break;
      i = lf + 1;
      const frame = this.#finish(true, base + i);
      if (frame !== null) yield frame;
    }
    this.#base = base + length;
  }

  /** A tail of blank bytes alone holds no record, closed or not. */
  *end(): Generator<JsonlFrame> {
    if (this.#contentStart === -1) return;
    const frame = this.#finish(false, this.#base);
    if (frame !== null) yield frame;
  }

  #finish(closed: boolean, byteEnd: number): JsonlFrame | null {
    const leading = this.#contentStart - this.#frameStart;
    const frame = classify(
      concat(this.#kept, this.#keptBytes),
      closed,
      this.#line,
      this.#frameStart,
      byteEnd,
      leading,
      this.#recordBytes,
    );
    if (frame !== null) {
      this.#records += 1;
      checkLimit('jsonlRecordCount', this.#recordCount, this.#records);
    }
    this.#kept = [];
    this.#keptBytes = 0;
    this.#contentStart = -1;
    this.#frameStart = byteEnd;
    this.#line += 1;
    return frame;
  }

  #keep(part: Uint8Array, lineEnd: number): void {
    if (part.length === 0) return;
    // Allow for a leading BOM (line 1 only) and a trailing CR before the exact check at the end.
    const slack = (this.#line === 1 ? BOM.length : 0) + 1;
    if (lineEnd - this.#frameStart - slack > this.#recordBytes) {
      throw new SourceLimitExceeded('jsonlRecordBytes', this.#recordBytes, this.#recordBytes + 1);
    }
    this.#kept.push(part);
    this.#keptBytes += part.length;
  }
}

/** `leading`: blank bytes before `raw` on its line (skipped, never kept), counted toward the record's bytes. */
function classify(
  raw: Uint8Array,
  closed: boolean,
  line: number,
  byteStart: number,
  byteEnd: number,
  leading: number,
  recordLimit: number,
): JsonlFrame | null {
  let start = 0;
  let end = raw.length;
  if (line === 1 && leading === 0 && startsWithBom(raw)) start = BOM.length;
  if (end > start && raw[end - 1] === CR) end -= 1;
  const text = decodeStrictUtf8(raw.subarray(start, end), 'jsonl', false).trim();
  if (text.length === 0) return null;
  checkLimit('jsonlRecordBytes', recordLimit, leading + end - start);
  const record = parseObject(text);
  const kind: JsonlFrameKind = !closed ? 'partial' : record === null ? 'malformed' : 'parsed';
  return { line, byteStart, byteEnd, closed, kind, record };
}

/** Null when the text is not a JSON object; text that has no UTF-8 form throws like invalid bytes. */
function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = parseStrictJson(text, 'jsonl');
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch (error) {
    if (error instanceof SourceEncodingInvalid) throw error;
    return null;
  }
}

function startsWithBom(bytes: Uint8Array): boolean {
  return bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
