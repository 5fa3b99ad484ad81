import { describe, expect, it } from 'vitest';
import { completeRunEvents } from '../../../fixtures/capture/cli-captures.js';
import { ndjson, writeCapture } from '../../../fixtures/capture/write-capture.js';
import { advanceToolStatus } from '../../../src/transform/capture/tool-status-order.js';
import { onlySession, readCaptures } from '../../helpers/capture-sessions.js';
import { tempDir } from '../../helpers/run-cli.js';

const SID = 'sess-status-order';

const reannounce = (callId: string) => ({
  type: 'tool_call',
  subtype: 'started',
  call_id: callId,
  tool_call: { readToolCall: { args: { path: 'NOTES.md' } } },
  session_id: SID,
});
const result = {
  type: 'result',
  subtype: 'success',
  is_error: false,
  duration_ms: 1,
  duration_api_ms: 1,
  result: 'Created NOTES.md.',
  session_id: SID,
};

describe('tool status never regresses within a source', () => {
  it('an in-progress status never replaces a finished one; a finished one replaces anything', () => {
    for (const done of ['completed', 'failed', 'rejected'])
      for (const again of ['started', 'running', 'unknown'])
        expect(advanceToolStatus(done, again)).toBe(done);
    expect(advanceToolStatus('started', 'completed')).toBe('completed');
    expect(advanceToolStatus('completed', 'failed')).toBe('failed');
    expect(advanceToolStatus(null, 'started')).toBe('started');
  });

  // Every position after a call's completion where a replayed `started` can land.
  const events = completeRunEvents(SID);
  const completedAt = events.findIndex((e) => e.subtype === 'completed' && e.call_id === 'c-17');
  const positions = Array.from({ length: events.length - completedAt }, (_, i) => completedAt + 1 + i);
  it.each(positions)('a CLI call re-announced started at event %i stays completed', async (at) => {
    const replayed = [...events.slice(0, at), reannounce('c-17'), ...events.slice(at), result];
    const s = onlySession(await readCaptures([writeCapture(tempDir(), 'run.ndjson', ndjson(replayed))]));
    expect(s.toolCalls.map((t) => [t.tool_id, t.status])).toEqual([
      ['c-17', 'completed'],
      ['c-18', 'completed'],
    ]);
  });
});
