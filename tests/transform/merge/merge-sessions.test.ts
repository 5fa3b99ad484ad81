import { describe, expect, it } from 'vitest';
import { mergeSessions } from '../../../src/transform/merge/merge-sessions.js';
import type { SessionView, ViewMessage, ViewToolCall } from '../../../src/transform/session-view.js';
import { storeMessage } from '../../../src/transform/store/store-message.js';

function msg(
  id: string,
  role: 'user' | 'assistant',
  content: string,
  extra: Partial<ViewMessage> = {},
): ViewMessage {
  const fromStore = id.startsWith('store:');
  return {
    ...storeMessage({
      messageId: id,
      identityOrigin: 'store-db-v1',
      role,
      content,
      thinking: null,
      toolCalls: [],
      sources: [],
    }),
    ...(fromStore ? {} : { identityOrigin: 'composer-native', origin: 'composer' }),
    ...extra,
  };
}

function tool(name: string, params: unknown, extra: Partial<ViewToolCall> = {}): ViewToolCall {
  return {
    toolId: `t-${name}`,
    toolIdOrigin: 'tool-v1',
    nativeCallId: null,
    name,
    status: 'completed',
    params,
    result: null,
    error: null,
    files: [],
    userDecision: null,
    extensions: null,
    ...extra,
  };
}

function view(
  messages: ViewMessage[],
  title: string,
  fidelity: 'complete' | 'partial' = 'complete',
): SessionView {
  return {
    sessionId: 's',
    title,
    workspacePath: null,
    resolvedSource: 'composer',
    preferredSource: null,
    fidelity,
    resolutionState: fidelity,
    reasonCodes: [],
    createdAt: null,
    updatedAt: null,
    transcriptState: null,
    contextTokensUsed: null,
    contextTokenLimit: null,
    parentSessionId: null,
    messages,
    instances: [],
    diagnostics: [],
    sourceKeys: [],
    extensions: null,
  };
}

const composer = view(
  [
    msg('c1', 'user', 'Question'),
    msg('c2', 'assistant', '', { toolCalls: [tool('Read', { path: 'a' })] }),
    msg('c3', 'assistant', 'Answer'),
  ],
  'C',
);
const store = view(
  [
    msg('store:v1:db:s0:1', 'user', 'Store-only start'),
    msg('store:v1:db:s1:1', 'user', '<user_query>\n Question \n</user_query>'),
    msg('store:v1:db:s2:1', 'assistant', 'Reading it', {
      toolCalls: [
        tool(
          'Read',
          { path: 'a' },
          { toolId: 'tool:v1:store:v1:db:s2:1:r:1', nativeCallId: 'toolu_1', result: 'body' },
        ),
        tool('Grep', { q: 'x' }, { toolId: 'tool:v1:store:v1:db:s2:1:g:1', nativeCallId: 'toolu_2' }),
      ],
    }),
    msg('store:v1:db:side:1', 'assistant', 'sidechain', { isSidechain: true, onActiveBranch: false }),
    msg('c3', 'assistant', 'Store middle whose id collides', {
      toolCalls: [tool('Shell', { command: 'ls' }, { toolId: 'tool:v1:c3:h:1', nativeCallId: 'call_9' })],
    }),
    msg('store:v1:db:s3:1', 'assistant', 'Answer'),
    msg('store:v1:db:s4:1', 'user', 'Store-only end'),
  ],
  'S',
);

describe('Composer/Store merge', () => {
  const merged = mergeSessions(composer, store, 'composer');

  it('keeps Composer identities, inserts Store-only messages once at start, middle and end', () => {
    expect(merged.messages.map((m) => m.messageId)).toEqual([
      'store:v1:db:s0:1',
      'c1',
      'c2',
      'store:v1:db:side:1',
      'c3:collision:1',
      'c3',
      'store:v1:db:s4:1',
    ]);
    expect(merged.resolvedSource).toBe('merged');
    expect(merged.fidelity).toBe('complete');
  });

  it('fills a blank Composer slot from Store; "Matched Store calls enrich the corresponding Composer slot and unmatched Store calls append in Store-native order"', () => {
    const c2 = merged.messages.find((m) => m.messageId === 'c2')!;
    expect(c2.content).toBe('Reading it');
    expect(c2.toolCalls.map((t) => [t.toolId, t.name, t.result, t.nativeCallId])).toEqual([
      // The matched slot keeps the Composer ID; the Store call ID stays as data.
      ['t-Read', 'Read', 'body', 'toolu_1'],
      // The appended call keeps the ID allocated under its Store-side message before the merge.
      ['tool:v1:store:v1:db:s2:1:g:1', 'Grep', null, 'toolu_2'],
    ]);
  });

  it('a Store-only message renamed by a collision keeps the tool IDs allocated under its Store-side ID', () => {
    const renamed = merged.messages.find((m) => m.messageId === 'c3:collision:1')!;
    expect(renamed.toolCalls.map((t) => t.toolId)).toEqual(['tool:v1:c3:h:1']);
  });

  it('pairs a Composer call with the Store call of equal name and equal native call ID first', () => {
    const c = view(
      [
        msg('c1', 'assistant', 'Two reads', {
          toolCalls: [
            tool('Read', { path: 'x' }, { toolId: 'c-a', nativeCallId: 'call_b' }),
            tool('Read', { path: 'y' }, { toolId: 'c-b', nativeCallId: 'call_a' }),
          ],
        }),
      ],
      'C',
    );
    const s = view(
      [
        msg('store:v1:db:s:1', 'assistant', 'Two reads', {
          toolCalls: [
            tool('Read', { path: 'x' }, { toolId: 'st-a', nativeCallId: 'call_a', result: 'A' }),
            tool('Read', { path: 'y' }, { toolId: 'st-b', nativeCallId: 'call_b', result: 'B' }),
          ],
        }),
      ],
      'S',
    );
    const calls = mergeSessions(c, s, 'composer').messages[0]!.toolCalls;
    expect(calls.map((t) => [t.toolId, t.result])).toEqual([
      ['c-a', 'B'],
      ['c-b', 'A'],
    ]);
  });

  it('Store sidechains stay off the active branch; parents follow the merged branch', () => {
    const side = merged.messages.find((m) => m.isSidechain)!;
    expect(side.onActiveBranch).toBe(false);
    const active = merged.messages.filter((m) => m.onActiveBranch);
    expect(active.slice(1).map((m) => m.parentMessageId)).toEqual(
      active.slice(0, -1).map((m) => m.messageId),
    );
  });

  it('Store-preferred changes scalar winners only, never pairing, order or identity', () => {
    const preferred = mergeSessions(composer, store, 'store');
    expect(preferred.messages.map((m) => m.messageId)).toEqual(merged.messages.map((m) => m.messageId));
    expect(preferred.title).toBe('S');
    expect(merged.title).toBe('C');
    expect(preferred.messages[1]!.content).toBe('<user_query>\n Question \n</user_query>');
    expect(merged.messages[1]!.content).toBe('Question');
  });

  it('any partial contributor makes the merge partial', () => {
    expect(mergeSessions(composer, view(store.messages, 'S', 'partial'), 'composer').fidelity).toBe(
      'partial',
    );
  });
});
