import { describe, expect, it } from 'vitest';
import { completeBasic, truncatedNoResult } from '../../../fixtures/capture/cli-captures.js';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { resolveCaptureWithCursor } from '../../../src/transform/capture/capture-precedence.js';
import { contributionView } from '../../../src/transform/resolve-session.js';
import type { SessionView } from '../../../src/transform/session-view.js';
import { readCaptures } from '../../helpers/capture-sessions.js';
import { tempDir } from '../../helpers/run-cli.js';

async function captureView(content: string): Promise<SessionView> {
  const { contributions } = await readCaptures([writeCapture(tempDir(), 'run.ndjson', content)]);
  return contributionView(contributions[0]!);
}

/** A stand-in for Cursor's own view of the same session (Store role). */
function cursorView(
  base: SessionView,
  state: Pick<SessionView, 'fidelity' | 'resolutionState'>,
): SessionView {
  return {
    ...base,
    ...state,
    resolvedSource: 'store-db',
    messages: [],
    diagnostics: [],
    sourceKeys: ['store-key'],
    instances: base.instances.map((i) => ({ ...i, sourceRole: 'store', representation: 'store-db' })),
  };
}

describe('capture vs Cursor data precedence ("never picks or unions them silently")', () => {
  it('an ambiguous Cursor view is never resolved by a complete capture: the ambiguity is kept, the capture set aside', async () => {
    const capture = await captureView(completeBasic());
    const cursor = cursorView(capture, { fidelity: 'partial', resolutionState: 'ambiguous' });
    const view = resolveCaptureWithCursor(cursor, capture);
    expect(view.resolvedSource).toBe('store-db');
    expect(view.resolutionState).toBe('ambiguous');
    expect(view.instances.map((i) => [i.representation, i.state])).toEqual([
      ['store-db', 'contributed'],
      ['cli-stream', 'superseded'],
    ]);
    expect(view.sourceKeys).toContain('store-key');
    expect(view.sourceKeys).toContain(capture.sourceKeys[0]);
    const setAside = view.diagnostics.find((d) => d.code === 'CAPTURE_SET_ASIDE')!;
    expect(setAside.details).toMatchObject({ rule: 'cursor-data-first', setAside: ['cli-stream'] });
    expect(JSON.stringify(setAside)).not.toContain('NOTES.md');
  });

  it('a complete capture beats partial Cursor data; a provisional one does not', async () => {
    const complete = await captureView(completeBasic());
    const partialCursor = cursorView(complete, { fidelity: 'partial', resolutionState: 'partial' });
    const won = resolveCaptureWithCursor(partialCursor, complete);
    expect(won.resolvedSource).toBe('cli-stream');
    expect(won.messages).toHaveLength(3);
    expect(won.instances.find((i) => i.representation === 'store-db')).toMatchObject({
      state: 'superseded',
      reasonCode: 'superseded-by-complete-capture',
    });
    const provisional = await captureView(truncatedNoResult(complete.sessionId));
    expect(resolveCaptureWithCursor(partialCursor, provisional).resolvedSource).toBe('store-db');
  });
});
