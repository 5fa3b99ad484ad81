import { describe, expect, it } from 'vitest';
import {
  cancelArchiveDeleteCapture,
  expired410Capture,
  finishedCapture,
  finishedSse,
  interactionCapture,
  reconnectCapture,
  runningCapture,
  unknownMajorCapture,
} from '../../../fixtures/capture/cloud-captures.js';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { extensions, onlySession, readCaptures } from '../../helpers/capture-sessions.js';
import { tempDir } from '../../helpers/run-cli.js';

const read = (content: string, name = 'agent.capture.jsonl') =>
  readCaptures([writeCapture(tempDir(), name, content)]);

describe('Cloud Agents v1 capture view', () => {
  it('finished run: session = agent, native run ID, deltas concatenated, tool call by callId, FINISHED → complete', async () => {
    const s = onlySession(await read(finishedCapture()));
    expect(s.session).toMatchObject({
      session_id: 'bc-0000-0001',
      resolved_source: 'cloud-agent',
      fidelity: 'complete',
      title: 'Check the config',
      created_at: Date.parse('2026-05-01T09:59:58Z'),
      created_at_source: 'capture-metadata',
    });
    expect(s.messages.map((m) => [m.message_id, m.identity_origin, m.content, m.thinking])).toEqual([
      ['run-0000-0001', 'capture-native', 'Looking at the config.', 'Read it first.'],
    ]);
    expect(s.messages[0]!).toMatchObject({
      timestamp: Date.parse('2026-05-01T09:59:59Z'),
      duration_ms: 9100,
    });
    expect(s.toolCalls.map((t) => [t.tool_id, t.name, t.status])).toEqual([
      ['tc-1', 'read_file', 'completed'],
    ]);
    expect(JSON.parse(s.messages[0]!.extensions!)).toMatchObject({
      runStatus: 'FINISHED',
      runLifecycle: 'complete',
    });
  });

  it('raw SSE text form: same content, replayed frame after the reconnect is de-duplicated', async () => {
    const s = onlySession(await read(finishedSse(), 'run.sse'));
    expect(s.session.session_id).toBe('run-0000-0001');
    expect(s.messages[0]!.content).toBe('Looking at the config.');
    expect(s.toolCalls).toHaveLength(1);
    const capture = extensions(s).capture as Record<string, unknown>;
    expect(capture).toMatchObject({ format: 'raw-sse', agentIdKnown: false, replaysSkipped: 1 });
    expect(JSON.parse(s.messages[0]!.extensions!).connections).toEqual([1, 2]);
  });

  it('reconnect: replays de-duplicated by (event, id), id-less status repeats handled, provenance kept', async () => {
    const s = onlySession(await read(reconnectCapture()));
    expect(s.messages[0]!.content).toBe('Looking at the config.');
    expect(extensions(s).capture).toMatchObject({ replaysSkipped: 1 });
    expect(JSON.parse(s.messages[0]!.extensions!)).toMatchObject({
      connections: [1, 2],
      resumedFrom: ['1770000000500-0'],
    });
  });

  it('410 stream_expired then Get A Run: EXPIRED is terminal (mapped to expired)', async () => {
    const s = onlySession(await read(expired410Capture()));
    expect(s.session.fidelity).toBe('complete');
    expect(JSON.parse(s.messages[0]!.extensions!)).toMatchObject({
      runStatus: 'EXPIRED',
      runLifecycle: 'expired',
    });
  });

  it('cancel, archive, unarchive and permanent delete are distinct recorded lifecycle states', async () => {
    const s = onlySession(await read(cancelArchiveDeleteCapture()));
    const capture = extensions(s).capture as { lifecycleEvents: { state: string }[]; agentState: string };
    expect(capture.lifecycleEvents.map((e) => e.state)).toEqual(['archived', 'unarchived', 'deleted']);
    expect(capture.agentState).toBe('deleted');
    expect(JSON.parse(s.messages[0]!.extensions!)).toMatchObject({
      runStatus: 'CANCELLED',
      runLifecycle: 'cancelled',
      cancelRequested: true,
    });
    const archivedOnly = onlySession(await read(cancelArchiveDeleteCapture(undefined, undefined, 3)));
    expect((extensions(archivedOnly).capture as Record<string, unknown>).agentState).toBe('archived');
  });

  it('a running run stays provisional', async () => {
    const s = onlySession(await read(runningCapture()));
    expect(s.session.fidelity).toBe('partial');
    expect(JSON.parse(s.session.reason_codes)).toEqual(['capture-provisional']);
  });

  it('`cursor-cloud-v2` (declared unknown major) fails closed', async () => {
    const result = await read(unknownMajorCapture());
    expect(result.sessions).toEqual([]);
    expect(result.diagnostics[0]).toMatchObject({
      code: 'CAPTURE_SCHEMA_UNSUPPORTED',
      details: { declared: 'cursor-cloud-v2' },
    });
  });

  it('`interaction_update` only: text/thinking deltas, tool calls by callId with streamed shell output; unmapped variants kept verbatim', async () => {
    const s = onlySession(await read(interactionCapture()));
    expect(s.session.fidelity).toBe('complete');
    expect(s.messages.map((m) => [m.message_id, m.content, m.thinking])).toEqual([
      ['run-0000-0006', 'Running the tests.', 'Check the tests.'],
    ]);
    expect(s.toolCalls.map((t) => [t.tool_id, t.name, t.status, t.result])).toEqual([
      ['tc-9', 'run_terminal_cmd', 'completed', '{"exitCode":0}'],
    ]);
    expect(JSON.parse(s.toolCalls[0]!.extensions!)).toEqual({ streamedOutput: 'ok 1\nok 2\n' });
    const ext = JSON.parse(s.messages[0]!.extensions!) as {
      interactionUpdates: string;
      otherEvents: { data: { type: string } }[];
    };
    expect(ext.interactionUpdates).toBe('mapped');
    expect(ext.otherEvents.map((e) => e.data.type)).toEqual(['step-completed', 'turn-ended']);
  });

  it('"handle either these or the simplified events, not both": with simplified events the updates stay verbatim', async () => {
    const s = onlySession(await read(interactionCapture({ redundant: true })));
    expect(s.messages.map((m) => [m.content, m.thinking])).toEqual([['Running the tests.', null]]);
    expect(s.toolCalls).toEqual([]);
    const ext = JSON.parse(s.messages[0]!.extensions!) as {
      interactionUpdates: string;
      otherEvents: unknown[];
    };
    expect(ext).toMatchObject({ interactionUpdates: 'verbatim' });
    expect(ext.otherEvents).toHaveLength(9);
  });
});
