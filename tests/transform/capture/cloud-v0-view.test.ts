import { describe, expect, it } from 'vitest';
import { finishedCapture, v0Conversation } from '../../../fixtures/capture/cloud-captures.js';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { resolveSession } from '../../../src/transform/resolve-session.js';
import { extensions, onlySession, readCaptures } from '../../helpers/capture-sessions.js';
import { tempDir } from '../../helpers/run-cli.js';

const read = (content: string, name = 'v0-conversation.json') =>
  readCaptures([writeCapture(tempDir(), name, content)]);

describe('Cloud Agents v0 conversation view', () => {
  it('bare body: session = agent ID byte-exact, native message IDs, text only, nothing invented, partial', async () => {
    const s = onlySession(await read(v0Conversation()));
    expect(s.session).toMatchObject({
      session_id: 'bc_ex1',
      resolved_source: 'cloud-agent',
      fidelity: 'partial',
      created_at_source: 'epoch-unknown',
    });
    expect(JSON.parse(s.session.reason_codes)).toEqual(['capture-provisional', 'cloud-v0-lossy']);
    expect(s.messages.map((m) => [m.message_id, m.identity_origin, m.role, m.content])).toEqual([
      ['m1', 'capture-native', 'user', 'Bump version'],
      ['m2', 'capture-native', 'assistant', 'Done.'],
    ]);
    expect(s.messages.map((m) => [m.model, m.thinking, m.timestamp_source])).toEqual([
      [null, null, 'unknown'],
      [null, null, 'unknown'],
    ]);
    expect(s.toolCalls).toEqual([]);
    expect(JSON.parse(s.messages[1]!.extensions!)).toMatchObject({ unknownFields: { futureField: 1 } });
    expect(extensions(s).capture).toMatchObject({
      surface: 'cloud-v0-conversation',
      format: 'bare',
      lifecycle: 'provisional',
      lost: ['message-timestamps', 'models', 'thinking', 'tool-calls', 'tool-results', 'runs'],
    });
    expect(s.sourceInstances[0]).toMatchObject({ source_role: 'cloud', representation: 'cloud-capture' });
  });

  it('wrapped with agent metadata (pretty-printed): title and created_at from the agent; unknown message types kept verbatim; still partial', async () => {
    const s = onlySession(await read(v0Conversation({ wrapped: true, extra: true }), 'saved.txt'));
    expect(s.session).toMatchObject({
      title: 'Bump the version',
      fidelity: 'partial',
      created_at_source: 'capture-metadata',
    });
    expect(s.messages.map((m) => m.message_id)).toEqual(['m1', 'm2', 'm4']);
    expect(extensions(s).capture).toMatchObject({
      format: 'wrapped',
      agentState: 'FINISHED',
      unknownMessages: [{ index: 2, message: { id: 'm3', type: 'tool_message', text: 'ran npm version' } }],
    });
  });

  it('read whatever its first bytes show: no messages yet, a long first message written {text, type, id}, a long agent summary', async () => {
    const empty = onlySession(await read(v0Conversation({ agentId: 'bc_empty', shape: 'empty' })));
    expect(empty.session).toMatchObject({ session_id: 'bc_empty', fidelity: 'partial' });
    expect(empty.messages).toEqual([]);
    const long = onlySession(await read(v0Conversation({ agentId: 'bc_long', shape: 'long-first-text' })));
    expect(long.messages.map((m) => [m.message_id, m.role, m.content.length > 20_000])).toEqual([
      ['m1', 'user', true],
      ['m2', 'assistant', false],
    ]);
    const summary = onlySession(await read(v0Conversation({ shape: 'long-agent-summary' }), 'agent.json'));
    expect(summary.session).toMatchObject({ session_id: 'bc_ex1', title: 'Bump the version' });
    expect(summary.messages.map((m) => m.message_id)).toEqual(['m1', 'm2']);
    expect(extensions(summary).capture).toMatchObject({ format: 'wrapped' });
  });

  it('a document naming two agents, or cut mid-write, is refused (fail closed)', async () => {
    const conflict = JSON.stringify({
      agent: { id: 'bc_a' },
      conversation: { id: 'bc_b', messages: [{ id: 'm1', type: 'user_message', text: 'x' }] },
    });
    const refused = await read(`${conflict}\n`);
    expect(refused.sessions).toEqual([]);
    expect(refused.diagnostics[0]).toMatchObject({
      code: 'CAPTURE_SESSION_ID_CHANGED',
      details: { surface: 'cloud-v0', field: 'agent.id', failClosed: true },
    });
    const cut = await read(v0Conversation().slice(0, -20));
    expect(cut.diagnostics.map((d) => d.code)).toEqual(['CAPTURE_DOCUMENT_MALFORMED']);
  });

  it('v0 and v1 agent IDs share one byte-exact namespace: a complete v1 capture of the agent supersedes the v0 body', async () => {
    const dir = tempDir();
    writeCapture(dir, 'a.json', v0Conversation({ agentId: 'bc-0000-0001' }));
    writeCapture(dir, 'b.capture.jsonl', finishedCapture('bc-0000-0001'));
    writeCapture(dir, 'c.json', v0Conversation({ agentId: 'bc_0000-0001' }));
    const { contributions } = await readCaptures([dir]);
    const same = contributions.filter((c) => c.occurrence.sessionId === 'bc-0000-0001');
    expect(same).toHaveLength(2);
    const s = resolveSession(same, { preferredSource: 'composer' });
    expect(s.session.fidelity).toBe('complete');
    expect(s.messages.map((m) => m.message_id)).toEqual(['run-0000-0001']);
    expect(s.sourceInstances.map((i) => i.state).sort()).toEqual(['contributed', 'superseded']);
    expect(contributions.map((c) => c.occurrence.sessionId)).toContain('bc_0000-0001');
  });
});
