import { describe, expect, it } from 'vitest';
import { completeBasic } from '../../../fixtures/capture/cli-captures.js';
import { ndjson, writeCapture } from '../../../fixtures/capture/write-capture.js';
import { readCliCapture } from '../../../src/extract/capture/cli-stream-reader.js';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { ReadCounters } from '../../../src/extract/read-counters.js';
import { tempDir } from '../../helpers/run-cli.js';

const read = (content: string) =>
  readCliCapture(writeCapture(tempDir(), 'x.ndjson', content), DEFAULT_READ_LIMITS, new ReadCounters());

describe('readCliCapture session identity', () => {
  it('takes the constant session_id of the stream', async () => {
    expect((await read(completeBasic('sess-1')))?.sessionId).toBe('sess-1');
  });

  it('an empty or null session_id names no session', async () => {
    const unnamed = ndjson([
      { type: 'system', subtype: 'init', session_id: '' },
      { type: 'user', session_id: null, text: 'hi' },
    ]);
    expect(await read(unnamed)).toBeNull();
  });

  it('an empty session_id next to a real one is not a change of session', async () => {
    const stream = ndjson([
      { type: 'system', subtype: 'init', session_id: '' },
      { type: 'user', session_id: 'sess-2', text: 'hi' },
    ]);
    expect((await read(stream))?.sessionId).toBe('sess-2');
  });
});
