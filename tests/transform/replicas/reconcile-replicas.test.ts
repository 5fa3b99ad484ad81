import { describe, expect, it } from 'vitest';
import { plainMessage } from '../../../src/transform/composer/plain-message.js';
import { reconcileReplicas } from '../../../src/transform/replicas/reconcile-replicas.js';
import type { SessionView, ViewMessage } from '../../../src/transform/session-view.js';

function message(id: string, content: string): ViewMessage {
  const time = { kind: 'direct', ms: 1_700_000_000_000, source: 'composer-created-at' } as const;
  return {
    ...plainMessage({ role: 'user', content, time }, 0, id),
    parentMessageId: null,
    onActiveBranch: true,
  };
}

function view(ref: string, workspacePath: string, contents: string[]): SessionView {
  return {
    sessionId: 'S',
    title: 'Same title',
    workspacePath,
    resolvedSource: 'composer',
    preferredSource: null,
    fidelity: 'partial',
    resolutionState: 'partial',
    reasonCodes: ['source-unavailable'],
    createdAt: { ms: 1_700_000_000_000, source: 'composer-metadata' },
    updatedAt: null,
    transcriptState: null,
    contextTokensUsed: null,
    contextTokenLimit: null,
    parentSessionId: null,
    messages: contents.map((c, i) => message(`m${i}`, c)),
    instances: [
      {
        sourceRole: 'composer',
        representation: 'composer-workspace',
        state: 'contributed',
        occurrenceRef: ref,
        carrier: 'custom',
        workspacePath,
        reasonCode: null,
      },
    ],
    diagnostics: [],
    sourceKeys: [`src:${ref}`],
    extensions: null,
  };
}

describe('Replica reconciliation', () => {
  it('"Equivalent replicas reconcile into one logical row": one contributed instance, the others equivalent-replica', () => {
    const result = reconcileReplicas([
      view('occ:b', '/w/b', ['hi', 'there']),
      view('occ:a', '/w/a', ['hi', 'there']),
    ]);
    expect(result.resolutionState).toBe('partial');
    expect(result.messages.map((m) => m.content)).toEqual(['hi', 'there']);
    expect(result.instances.map((i) => [i.occurrenceRef, i.state])).toEqual([
      ['occ:a', 'contributed'],
      ['occ:b', 'equivalent-replica'],
    ]);
    expect(result.workspacePath).toBe('/w/a');
    expect(result.sourceKeys).toEqual(['src:occ:a', 'src:occ:b']);
  });

  it('is independent of input order', () => {
    const a = view('occ:a', '/w/a', ['x']);
    const b = view('occ:b', '/w/b', ['x']);
    expect(reconcileReplicas([a, b])).toEqual(reconcileReplicas([b, a]));
  });

  it('"Divergent same-role replicas produce one explicit ambiguity": no messages, a diagnostic with opaque refs', () => {
    const result = reconcileReplicas([view('occ:a', '/w/a', ['hi']), view('occ:b', '/w/b', ['hi', 'more'])]);
    expect(result.resolutionState).toBe('ambiguous');
    expect(result.fidelity).toBe('partial');
    expect(result.messages).toEqual([]);
    expect(result.title).toBe('Same title');
    expect(result.instances.map((i) => i.reasonCode)).toEqual(['replica-divergent', 'replica-divergent']);
    const diag = result.diagnostics.find((d) => d.code === 'REPLICA_DIVERGENT');
    expect(diag?.details).toMatchObject({
      occurrenceCount: 2,
      distinctViews: 2,
      occurrenceRefs: ['occ:a', 'occ:b'],
    });
    expect(JSON.stringify(diag)).not.toContain('/w/');
  });

  it('metadata the replicas disagree on is dropped, never taken from one of them', () => {
    const a = view('occ:a', '/w/a', ['hi']);
    const b = { ...view('occ:b', '/w/b', ['hi']), title: 'Other title' };
    const result = reconcileReplicas([a, b]);
    expect(result.resolutionState).toBe('ambiguous');
    expect(result.title).toBeNull();
  });
});
