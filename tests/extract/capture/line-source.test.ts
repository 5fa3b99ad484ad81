import { describe, expect, it } from 'vitest';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { readPhysicalLines } from '../../../src/extract/capture/line-source.js';
import { SourceLimitExceeded } from '../../../src/extract/limits/limit-exceeded.js';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { ReadCounters } from '../../../src/extract/read-counters.js';
import { SourceEncodingInvalid } from '../../../src/extract/text/strict-utf8.js';
import { tempDir } from '../../helpers/run-cli.js';

const read = (content: string | Buffer, limits = DEFAULT_READ_LIMITS) =>
  Array.from(readPhysicalLines(writeCapture(tempDir(), 'x.jsonl', content), limits, new ReadCounters()));

describe('readPhysicalLines', () => {
  it('keeps physical indexes (blank lines count), strips CR and one leading BOM, flags an unterminated tail', () => {
    const lines = read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\r\n\nb\npartial')]));
    expect(lines).toEqual([
      { index: 0, text: 'a', terminated: true },
      { index: 1, text: '', terminated: true },
      { index: 2, text: 'b', terminated: true },
      { index: 3, text: 'partial', terminated: false },
    ]);
  });

  it('reads lines longer than one 64 KiB chunk whole', () => {
    const long = 'x'.repeat(200_000);
    expect(read(`${long}\nend\n`).map((line) => line.text.length)).toEqual([200_000, 3]);
  });

  it('Source Read Limits v1: jsonlRecordBytes is inclusive (equality passes, limit + 1 fails)', () => {
    const limits = { ...DEFAULT_READ_LIMITS, jsonlRecordBytes: 4 };
    expect(read('abcd\r\n', limits)).toHaveLength(1);
    const error = (() => {
      try {
        read('abcde\n', limits);
      } catch (e) {
        return e;
      }
    })() as SourceLimitExceeded;
    expect(error).toBeInstanceOf(SourceLimitExceeded);
    expect(error.details).toMatchObject({ bound: 'jsonlRecordBytes', limit: 4, observedAtLeast: 5 });
  });

  it('Source Read Limits v1: jsonlRecordCount counts nonempty records only; jsonlSourceBytes bounds the file', () => {
    expect(read('a\n\n\nb\n', { ...DEFAULT_READ_LIMITS, jsonlRecordCount: 2 })).toHaveLength(4);
    expect(() => read('a\nb\nc\n', { ...DEFAULT_READ_LIMITS, jsonlRecordCount: 2 })).toThrow(
      SourceLimitExceeded,
    );
    expect(() =>
      read('abcdef\n', { ...DEFAULT_READ_LIMITS, jsonlRecordBytes: 4, jsonlSourceBytes: 5 }),
    ).toThrow(SourceLimitExceeded);
  });

  it('invalid UTF-8 is SOURCE_ENCODING_INVALID, never replacement-decoded', () => {
    expect(() => read(Buffer.from([0x61, 0xff, 0x0a]))).toThrow(SourceEncodingInvalid);
  });

  it('blankLinesAreNoRecords: a blank line over jsonlRecordBytes is counted, not kept; a line that turns out not blank is bounded', () => {
    const limits = { ...DEFAULT_READ_LIMITS, jsonlRecordBytes: 8 };
    const path = writeCapture(tempDir(), 'x.md', `a\n${' \t'.repeat(40_000)}\n\r\r\n${'\r'.repeat(10)}`);
    const lines = Array.from(
      readPhysicalLines(path, limits, new ReadCounters(), { blankLinesAreNoRecords: true }),
    );
    expect(lines).toEqual([
      { index: 0, text: 'a', terminated: true },
      { index: 1, text: '', terminated: true, droppedBlankBytes: 80_000 },
      { index: 2, text: '\r', terminated: true },
      { index: 3, text: '', terminated: false, droppedBlankBytes: 10 },
    ]);
    // Without the option the same blank line is a record over the bound, as before.
    expect(() => Array.from(readPhysicalLines(path, limits, new ReadCounters()))).toThrow(
      SourceLimitExceeded,
    );
    const late = writeCapture(tempDir(), 'y.md', `${' '.repeat(100_000)}x\n`);
    expect(() =>
      Array.from(readPhysicalLines(late, limits, new ReadCounters(), { blankLinesAreNoRecords: true })),
    ).toThrow(SourceLimitExceeded);
  });

  it('blankLinesAreNoRecords: identical short blank lines in a row come as one line with their count', () => {
    const path = writeCapture(tempDir(), 'x.md', 'a\n\n\n\n \t\n \t\r\n \t\r\nb\n');
    const lines = Array.from(
      readPhysicalLines(path, DEFAULT_READ_LIMITS, new ReadCounters(), { blankLinesAreNoRecords: true }),
    );
    expect(lines).toEqual([
      { index: 0, text: 'a', terminated: true },
      { index: 1, text: '', terminated: true, repeat: 3 },
      { index: 4, text: ' \t', terminated: true },
      { index: 5, text: ' \t', terminated: true, repeat: 2 },
      { index: 7, text: 'b', terminated: true },
    ]);
  });
});
