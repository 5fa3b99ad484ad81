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
        tool('Read', { path: 'a' }, { toolId: 'toolu_1', toolIdOrigin: 'source-native', result: 'body' }),
        tool('Grep', { q: 'x' }, { toolId: 'toolu_2', toolIdOrigin: 'source-native' }),
      ],
    }),
    msg('store:v1:db:side:1', 'assistant', 'sidechain', { isSidechain: true, onActiveBranch: false }),
    msg('c3', 'assistant', 'Store middle whose id collides'),
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

  it('fills a blank Composer slot from Store and enriches the matched tool; unmatched Store calls append', () => {
    const c2 = merged.messages.find((m) => m.messageId === 'c2')!;
    expect(c2.content).toBe('Reading it');
    expect(c2.toolCalls.map((t) => [t.toolId, t.name, t.result])).toEqual([
      ['t-Read', 'Read', 'body'],
      ['toolu_2', 'Grep', null],
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
