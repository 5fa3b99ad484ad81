import { describe, expect, it } from 'vitest';
import type { SessionOccurrence } from '../../../src/extract/source-adapter.js';
import type {
  StoreContribution,
  StoreSessionFacts,
  TranscriptRecord,
} from '../../../src/extract/store/store-contribution.js';
import { resolveStoreSession } from '../../../src/transform/store/store-resolution.js';

const facts = (dbExpectation: StoreSessionFacts['dbExpectation']): StoreSessionFacts => ({
  meta: null,
  dbExpectation,
  parentSessionId: null,
});

function occurrence(ref: string, representation: SessionOccurrence['representation']): SessionOccurrence {
  return {
    sessionId: 's',
    sourceKey: `src:${ref}`,
    representation,
    carrier: 'custom',
    occurrenceRef: `occ:${ref}`,
    workspacePath: null,
    handle: null,
  };
}

const records: TranscriptRecord[] = [{ line: 1, record: { role: 'user', message: { content: 'hi' } } }];

function transcript(f: StoreSessionFacts): StoreContribution {
  return {
    kind: 'store-transcript',
    occurrence: occurrence('t', 'store-transcript'),
    diagnostics: [],
    data: {
      format: 'jsonl',
      readState: 'read',
      records,
      malformedLines: 0,
      partialTail: false,
      cutShort: false,
      facts: f,
    },
  };
}

function db(f: StoreSessionFacts, status: 'read' | 'failed'): StoreContribution {
  return {
    kind: 'store-db',
    occurrence: occurrence('d', 'store-db'),
    diagnostics: [],
    data: {
      status,
      failure: status === 'failed' ? 'SOURCE_LIMIT_EXCEEDED' : null,
      title: null,
      createdAtMs: null,
      leaves: [],
      treeProblems: [],
      facts: f,
    },
  };
}

describe('Store representation selection', () => {
  it('an expected but empty store.db gives a degraded transcript fallback with the DB recorded as failed', () => {
    const view = resolveStoreSession([db(facts('expected'), 'read'), transcript(facts('expected'))]);
    expect(view).toMatchObject({ resolvedSource: 'store-transcript', fidelity: 'partial' });
    expect(view.reasonCodes).toContain('expected-store-db-unavailable');
    expect(view.instances.map((i) => `${i.representation}:${i.state}`).sort()).toEqual([
      'store-db:failed',
      'store-transcript:contributed',
    ]);
  });

  it('a DB that failed a read limit degrades to the transcript, never to a silent complete view', () => {
    const view = resolveStoreSession([db(facts('expected'), 'failed'), transcript(facts('expected'))]);
    expect(view.fidelity).toBe('partial');
    expect(view.messages).toHaveLength(1);
  });

  it('an unknown DB expectation keeps a transcript view partial', () => {
    const view = resolveStoreSession([transcript(facts('unknown'))]);
    expect(view.reasonCodes).toEqual(['store-db-expectation-unknown']);
  });

  it('a transcript with no expected DB is complete', () => {
    expect(resolveStoreSession([transcript(facts('not-expected'))])).toMatchObject({
      fidelity: 'complete',
      transcriptState: 'parsed',
    });
  });
});
