import { describe, expect, it } from 'vitest';
import type { SessionOccurrence } from '../../../src/extract/source-adapter.js';
import type {
  StoreContribution,
  StoreSessionFacts,
  StoreTranscriptData,
  TranscriptRecord,
} from '../../../src/extract/store/store-contribution.js';
import { type Diagnostic, diagnostic } from '../../../src/shared/diagnostic.js';
import type { Code } from '../../../src/shared/diagnostic-catalogue.js';
import { SessionUnavailable } from '../../../src/transform/session-unavailable.js';
import { resolveStoreSession } from '../../../src/transform/store/store-resolution.js';

const facts = (dbExpectation: StoreSessionFacts['dbExpectation']): StoreSessionFacts => ({
  meta: null,
  dbExpectation,
  parentSessionId: null,
  workspaceUncertain: false,
  inventoryComplete: true,
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

function transcript(
  f: StoreSessionFacts,
  read: Partial<StoreTranscriptData> = {},
  diagnostics: Diagnostic[] = [],
): StoreContribution {
  return {
    kind: 'store-transcript',
    occurrence: occurrence('t', 'store-transcript'),
    diagnostics,
    data: {
      format: 'jsonl',
      readState: 'read',
      records,
      malformedLines: 0,
      partialTail: false,
      cutShort: false,
      facts: f,
      ...read,
    },
  };
}

/** A transcript whose read failed on its first bytes: no record, the failure's diagnostic. */
const undecodedTranscript = (f: StoreSessionFacts, code: Code): StoreContribution =>
  transcript(f, { records: [], cutShort: true }, [
    diagnostic(code, 'read failed', {} as never, { sessionId: 's' }),
  ]);

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
      timeProblems: [],
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

  it('a transcript-only session that decoded nothing is fatal for that session, not an empty row', () => {
    for (const code of ['SOURCE_ENCODING_INVALID', 'SOURCE_LIMIT_EXCEEDED'] as const) {
      const only = [undecodedTranscript(facts('not-expected'), code)];
      expect(() => resolveStoreSession(only, { alone: true })).toThrow(SessionUnavailable);
      expect(() => resolveStoreSession(only, { alone: true })).toThrow(expect.objectContaining({ code }));
      // Another contributor (Composer, a capture) holds the session: the Store side only degrades.
      expect(resolveStoreSession(only, { alone: false })).toMatchObject({
        resolvedSource: 'store-metadata',
        fidelity: 'partial',
      });
    }
  });

  it('a session directory keeps a transcript read failure a degraded metadata-only row', () => {
    const withDir = [
      db(facts('expected'), 'failed'),
      undecodedTranscript(facts('expected'), 'SOURCE_ENCODING_INVALID'),
    ];
    expect(resolveStoreSession(withDir, { alone: true })).toMatchObject({
      resolvedSource: 'store-metadata',
      fidelity: 'partial',
    });
  });

  it('unsupported meta.json makes even a complete DB view partial, so it never replaces an archived one', () => {
    const meta = {
      problem: 'invalid-json',
      hasConversation: null,
      cwd: null,
      title: null,
      createdAtMs: null,
      updatedAtMs: null,
      timeProblems: [],
    };
    const view = resolveStoreSession([transcript({ ...facts('not-expected'), meta })], { alone: true });
    expect(view).toMatchObject({ resolvedSource: 'store-transcript', fidelity: 'partial' });
    expect(view.reasonCodes).toContain('store-meta-unsupported');
    expect(view.reasonCodes).toContain('workspace-unknown');
  });

  it('a transcript whose workspace may be the cwd of an unsupported meta.json is partial, not workspace-less', () => {
    const uncertain = { ...facts('not-expected'), workspaceUncertain: true };
    const view = resolveStoreSession([transcript(uncertain)], { alone: true });
    expect(view.fidelity).toBe('partial');
    expect(view.workspacePath).toBeNull();
    expect(view.reasonCodes).toEqual(['store-meta-unsupported', 'workspace-unknown']);
  });

  it('a complete-looking transcript view is partial when a Store directory could not be listed', () => {
    const incomplete = { ...facts('not-expected'), inventoryComplete: false };
    const view = resolveStoreSession([transcript(incomplete)], { alone: true });
    expect(view).toMatchObject({ fidelity: 'partial', resolutionState: 'partial' });
    expect(view.reasonCodes).toEqual(['source-read-failed']);
  });

  it('a DB whose root blob is missing is a typed partial, never a silent empty conversation', () => {
    const missingRoot = db(facts('expected'), 'read');
    (missingRoot.data as { treeProblems: string[] }).treeProblems = ['missing-tree-blob'];
    const view = resolveStoreSession([missingRoot], { alone: true });
    expect(view.fidelity).toBe('partial');
    expect(view.diagnostics.map((d) => [d.code, d.details.problems])).toEqual([
      ['STORE_DB_PARTIAL', { 'missing-tree-blob': 1 }],
    ]);
  });
});
