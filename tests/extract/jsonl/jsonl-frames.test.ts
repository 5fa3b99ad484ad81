import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type JsonlFrame,
  type JsonlScanOptions,
  scanJsonlFrames,
  scanJsonlFramesSync,
} from '../../../src/extract/jsonl/jsonl-frames.js';
import { SourceLimitExceeded } from '../../../src/extract/limits/limit-exceeded.js';
import { DEFAULT_READ_LIMITS, resolveReadLimits } from '../../../src/extract/limits/read-limits.js';
import { SourceEncodingInvalid } from '../../../src/extract/text/strict-utf8.js';

const dir = mkdtempSync(join(tmpdir(), 'jsonl-frames-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileCount = 0;

function file(bytes: string | Uint8Array): string {
  const path = join(dir, `t${fileCount++}.jsonl`);
  writeFileSync(path, bytes);
  return path;
}

type Scanner = (path: string, options: JsonlScanOptions) => Iterable<JsonlFrame> | AsyncIterable<JsonlFrame>;

/** Every case runs on the streaming scanner and on the blocking one: their frames and errors must agree. */
const SCANNERS: [string, Scanner][] = [
  ['streaming', scanJsonlFrames],
  ['blocking', scanJsonlFramesSync],
];

describe.each(SCANNERS)('JSONL frame scanner (%s)', (_name, scanner) => {
  async function scan(
    path: string,
    limits = DEFAULT_READ_LIMITS,
    chunkBytes?: number,
  ): Promise<JsonlFrame[]> {
    const frames: JsonlFrame[] = [];
    for await (const frame of scanner(path, { limits, ...(chunkBytes ? { chunkBytes } : {}) })) {
      frames.push(frame);
    }
    return frames;
  }

  async function scanError(path: string, limits = DEFAULT_READ_LIMITS, chunkBytes?: number) {
    const seen: JsonlFrame[] = [];
    try {
      for await (const frame of scanner(path, { limits, ...(chunkBytes ? { chunkBytes } : {}) })) {
        seen.push(frame);
      }
    } catch (error) {
      return { error, seen };
    }
    throw new Error('expected the scan to fail');
  }

  it('reports closed, malformed and partial-tail frames with 1-based physical lines; blank lines keep their number only', async () => {
    const frames = await scan(file('{"a":1}\n\n  \nnot json\n[1,2]\n{"b":2}\n{"c":'));
    expect(frames.map((f) => [f.line, f.kind, f.closed])).toEqual([
      [1, 'parsed', true],
      [4, 'malformed', true],
      [5, 'malformed', true],
      [6, 'parsed', true],
      [7, 'partial', false],
    ]);
    expect(frames[0]?.record).toEqual({ a: 1 });
    expect(frames[4]?.record).toBeNull();
  });

  it('source-read-limits/v1: jsonlRecordCount counts "Nonempty records in one transcript": 1 MiB of blank lines is no record and no frame', async () => {
    const blanks = `${'\n'.repeat(512 * 1024)}${' \r\n'.repeat(128 * 1024)}`;
    const frames = await scan(file(`${blanks}{"a":1}\n`), { ...DEFAULT_READ_LIMITS, jsonlRecordCount: 1 });
    expect(frames.map((f) => [f.line, f.kind])).toEqual([[512 * 1024 + 128 * 1024 + 1, 'parsed']]);
  });

  it('keeps the record of a partial tail that happens to be a JSON object, still marked partial', async () => {
    const frames = await scan(file('{"a":1}\n{"b":2}'));
    expect(frames[1]).toMatchObject({ kind: 'partial', closed: false, record: { b: 2 } });
  });

  it('reports exact byte spans including the LF of closed frames', async () => {
    const frames = await scan(file('{"a":1}\r\n\n{"b":2}'));
    expect(frames.map((f) => [f.byteStart, f.byteEnd])).toEqual([
      [0, 9],
      [10, 17],
    ]);
  });

  it('tolerates CRLF and one leading BOM at byte 0', async () => {
    const frames = await scan(file('\uFEFF{"a":"x"}\r\n{"b":"y"}\r\n'));
    expect(frames.map((f) => f.record)).toEqual([{ a: 'x' }, { b: 'y' }]);
    expect(frames.every((f) => f.kind === 'parsed')).toBe(true);
  });

  it('rejects a BOM on any line but the first (SOURCE_ENCODING_INVALID) after yielding the prefix', async () => {
    const { error, seen } = await scanError(file('{"a":1}\n\uFEFF{"b":2}\n'));
    expect(error).toBeInstanceOf(SourceEncodingInvalid);
    expect(seen.map((f) => f.line)).toEqual([1]);
  });

  it('rejects invalid UTF-8 instead of guessing an encoding', async () => {
    const bytes = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
    const { error } = await scanError(file(bytes));
    expect(error).toBeInstanceOf(SourceEncodingInvalid);
  });

  it('rejects a record whose JSON escapes an unpaired surrogate (no UTF-8 form) after yielding the prefix', async () => {
    const { error, seen } = await scanError(file('{"a":1}\n{"t":"x\\ud800"}\n'));
    expect(error).toBeInstanceOf(SourceEncodingInvalid);
    expect((error as SourceEncodingInvalid).problem).toBe('unpaired-surrogate');
    expect(seen.map((f) => f.line)).toEqual([1]);
  });

  it('assembles records and multi-byte characters that span read chunks', async () => {
    const text = '{"t":"héllo wörld ✓"}\n{"u":"😀😀😀"}\n';
    const frames = await scan(file(text), DEFAULT_READ_LIMITS, 3);
    expect(frames.map((f) => f.record)).toEqual([{ t: 'héllo wörld ✓' }, { u: '😀😀😀' }]);
  });

  it('jsonlRecordBytes is inclusive and excludes CR, LF and the BOM', async () => {
    const record = '{"k":"12345"}'; // 13 bytes
    const limits = resolveReadLimits({ jsonlRecordBytes: 13 });
    expect((await scan(file(`\uFEFF${record}\r\n${record}\r\n`), limits, 4)).length).toBe(2);
    const { error, seen } = await scanError(file(`${record}\n{"k":"123456"}\n`), limits, 4);
    expect(error).toBeInstanceOf(SourceLimitExceeded);
    expect((error as SourceLimitExceeded).details).toMatchObject({
      bound: 'jsonlRecordBytes',
      limit: 13,
      observedAtLeast: 14,
    });
    expect(seen.length).toBe(1);
  });

  it('jsonlSourceBytes counts every byte including BOM and newlines', async () => {
    const text = '\uFEFF{"a":1}\r\n'; // 3 + 7 + 2 = 12 bytes
    expect(
      (await scan(file(text), resolveReadLimits({ jsonlSourceBytes: 12, jsonlRecordBytes: 12 }))).length,
    ).toBe(1);
    const { error } = await scanError(
      file(text),
      resolveReadLimits({ jsonlSourceBytes: 11, jsonlRecordBytes: 11 }),
    );
    expect((error as SourceLimitExceeded).details).toMatchObject({
      bound: 'jsonlSourceBytes',
      observedAtLeast: 12,
    });
  });

  it('jsonlRecordCount counts non-blank records only', async () => {
    const limits = resolveReadLimits({ jsonlRecordCount: 2 });
    expect((await scan(file('{"a":1}\n\n\nbad\n\n'), limits)).length).toBe(2);
    const { error, seen } = await scanError(file('{"a":1}\n{"a":2}\n\n{"a":3}\n'), limits);
    expect((error as SourceLimitExceeded).details).toMatchObject({
      bound: 'jsonlRecordCount',
      observedAtLeast: 3,
    });
    expect(seen.length).toBe(2);
  });

  it('source-read-limits/v1: a blank line of any spelling is no record, whatever its length, closed or not', async () => {
    const limits = resolveReadLimits({ jsonlRecordBytes: 16 });
    const blank = ' \t\r'.repeat(64);
    for (const chunkBytes of [3, 7, 64 * 1024]) {
      const frames = await scan(
        file(`${blank}\n{"a":1}\r\n\r\r\n\n${blank}\n{"b":2}\n${blank}`),
        limits,
        chunkBytes,
      );
      expect(frames.map((f) => [f.line, f.kind, f.byteStart])).toEqual([
        [2, 'parsed', 193],
        [6, 'parsed', 399],
      ]);
    }
  });

  it('leading blank bytes still count toward jsonlRecordBytes, and a BOM after them is misplaced', async () => {
    const limits = resolveReadLimits({ jsonlRecordBytes: 10 });
    expect((await scan(file('   {"a":1}\n'), limits)).map((f) => f.record)).toEqual([{ a: 1 }]);
    const { error } = await scanError(file('    {"a":1}\n'), limits, 2);
    expect((error as SourceLimitExceeded).details).toMatchObject({ bound: 'jsonlRecordBytes', limit: 10 });
    const misplaced = await scanError(file(' \uFEFF{"a":1}\n'));
    expect(misplaced.error).toBeInstanceOf(SourceEncodingInvalid);
  });

  it('yields nothing for an empty file', async () => {
    expect(await scan(file(''))).toEqual([]);
  });
});
