import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { ReadCounters } from '../../../src/extract/read-counters.js';
import { readTranscript } from '../../../src/extract/store/transcript-reader.js';
import { DiagnosticSink } from '../../../src/shared/diagnostic.js';
import { tempDir } from '../../helpers/run-cli.js';
import { TRANSCRIPT_ONLY_FACTS } from '../../helpers/store-facts.js';

const dir = tempDir('etl-transcript-reader-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const facts = TRANSCRIPT_ONLY_FACTS;

function env() {
  return {
    limits: DEFAULT_READ_LIMITS,
    counters: new ReadCounters(),
    sink: new DiagnosticSink(),
    scope: { sessionId: 's', sourceRef: 'occ:r' },
  };
}

const codes = (e: ReturnType<typeof env>) => e.sink.items.map((d) => [d.code, d.details.reason]);

describe('agent transcript reader', () => {
  it('reports an entry discovery found unusable as unreadable, without opening it', async () => {
    const fifo = join(dir, 'known.jsonl');
    execFileSync('mkfifo', [fifo]);
    const e = env();
    const data = await readTranscript({ path: fifo, problem: 'not-a-regular-file' }, 'jsonl', facts, e);
    expect(data).toMatchObject({ readState: 'unreadable', records: [] });
    expect(codes(e)).toEqual([['SOURCE_UNREADABLE', 'not-a-regular-file']]);
  });

  it('never opens a FIFO that replaced a transcript after discovery (it would block)', async () => {
    const fifo = join(dir, 'swapped.jsonl');
    execFileSync('mkfifo', [fifo]);
    const e = env();
    const data = await readTranscript({ path: fifo, problem: null }, 'jsonl', facts, e);
    expect(data.readState).toBe('unreadable');
    expect(codes(e)).toEqual([['SOURCE_UNREADABLE', 'not-a-regular-file']]);
  });

  it('reports a transcript that vanished after discovery as SOURCE_UNREADABLE (ENOENT), never silently', async () => {
    const e = env();
    const data = await readTranscript({ path: join(dir, 'gone.jsonl'), problem: null }, 'jsonl', facts, e);
    expect(data.readState).toBe('unreadable');
    expect(codes(e)).toEqual([['SOURCE_UNREADABLE', 'ENOENT']]);
  });

  it('turns a legacy .txt encoding failure into a cut-short read with its diagnostic, not a thrown error', async () => {
    const txt = join(dir, 'legacy.txt');
    writeFileSync(txt, Buffer.from([0x75, 0x73, 0x65, 0x72, 0x3a, 0x0a, 0xff, 0x0a]));
    const e = env();
    const data = await readTranscript({ path: txt, problem: null }, 'txt', facts, e);
    expect(data).toMatchObject({ readState: 'read', records: [], cutShort: true });
    expect(e.sink.items.map((d) => d.code)).toEqual(['SOURCE_ENCODING_INVALID']);
  });
});
