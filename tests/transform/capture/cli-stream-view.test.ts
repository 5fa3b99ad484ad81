import { describe, expect, it } from 'vitest';
import {
  completeBasic,
  interactionUpdates,
  interactionUpdatesRedundant,
  jsonOutput,
  malformedMiddle,
  partialDeltas,
  provisionalThenComplete,
  sessionIdChange,
  truncatedNoResult,
  unknownKinds,
  unknownMajor,
} from '../../../fixtures/capture/cli-captures.js';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { DEFAULT_READ_LIMITS } from '../../../src/extract/limits/read-limits.js';
import { extensions, onlySession, readCaptures } from '../../helpers/capture-sessions.js';
import { tempDir } from '../../helpers/run-cli.js';

const read = (content: string) => readCaptures([writeCapture(tempDir(), 'run.ndjson', content)]);

describe('CLI stream-json view', () => {
  it('complete run: segments between tool calls, call_id correlation, native tool IDs, complete fidelity', async () => {
    const s = onlySession(await read(completeBasic()));
    expect(s.session).toMatchObject({
      session_id: 'sess-0000-a1',
      resolved_source: 'cli-stream',
      fidelity: 'complete',
    });
    expect(s.session.workspace_path).toBe('/synthetic/ws');
    expect(s.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Add a NOTES.md with one line'],
      ['assistant', 'I will check whether the file exists.'],
      ['assistant', 'Created NOTES.md.'],
    ]);
    expect(s.messages.every((m) => /^capture:v1:[0-9a-f]{64}:1$/.test(m.message_id))).toBe(true);
    expect(s.toolCalls.map((t) => [t.message_id, t.tool_id, t.name, t.status])).toEqual([
      [s.messages[1]!.message_id, 'c-17', 'read', 'completed'],
      [s.messages[1]!.message_id, 'c-18', 'write', 'completed'],
    ]);
    expect(JSON.parse(s.toolCalls[1]!.result!)).toMatchObject({ linesCreated: 1 });
    expect(s.messages[1]!.model).toBe('Example Model');
  });

  it('`--output-format json`: one assistant message from `result`, complete', async () => {
    const s = onlySession(await read(jsonOutput()));
    expect(s.session.fidelity).toBe('complete');
    expect(s.messages.map((m) => [m.role, m.content])).toEqual([['assistant', 'Done.']]);
  });

  it('partial-output deltas: append deltas, skip the model_call_id flush and the final flush (three-shape rule)', async () => {
    const s = onlySession(await read(partialDeltas()));
    expect(s.messages.map((m) => m.content)).toEqual(['run the tests', 'Running tests', 'All green.']);
    expect(s.messages[1]!).toMatchObject({ timestamp: 1767225600100, timestamp_source: 'capture-event' });
    expect(s.toolCalls.map((t) => [t.message_id, t.tool_id])).toEqual([[s.messages[1]!.message_id, 'c-3']]);
    expect(extensions(s).capture).toMatchObject({ partialOutput: true, flushesSkipped: 2 });
  });

  it('truncated run: no terminal result → provisional (partial), the cut last line is a buffered tail', async () => {
    const read_ = await read(truncatedNoResult());
    const s = onlySession(read_);
    expect(s.session.fidelity).toBe('partial');
    expect(JSON.parse(s.session.reason_codes)).toEqual(['capture-provisional']);
    expect(s.diagnostics.map((d) => d.code)).toEqual(['CAPTURE_PARTIAL_TAIL']);
    expect(s.toolCalls.map((t) => [t.tool_id, t.status])).toEqual([['c-17', 'started']]);
  });

  it('malformed middle line blocks completion even after a success result, with a diagnostic', async () => {
    const s = onlySession(await read(malformedMiddle()));
    expect(s.session.fidelity).toBe('partial');
    expect(s.diagnostics[0]).toMatchObject({ code: 'CAPTURE_MALFORMED_LINE', details: { lines: [4] } });
    expect(s.messages).toHaveLength(3);
  });

  it('unknown event types, *ToolCall kinds, `function` tools, `rejected` results and fields are preserved', async () => {
    const s = onlySession(await read(unknownKinds()));
    expect(s.messages.map((m) => [m.role, m.content, m.thinking])).toEqual([
      ['user', 'search and fix', null],
      ['assistant', 'Searching.', 'Consider grep first.'],
      ['assistant', 'Done.', null],
    ]);
    expect(s.toolCalls.map((t) => [t.tool_id, t.name, t.status, t.user_decision])).toEqual([
      ['c-1', 'grep', 'rejected', 'rejected'],
      ['c-2', 'custom_lookup', 'completed', null],
    ]);
    expect(JSON.parse(s.toolCalls[1]!.params!)).toEqual({ id: 7 });
    const capture = extensions(s).capture as {
      unknownEvents: unknown;
      init: { unknownFields: unknown };
      result: { unknownFields: unknown };
    };
    expect(capture.unknownEvents).toEqual([
      { line: 8, event: { type: 'telemetry', subtype: 'tick', session_id: 'sess-0000-f6', counter: 3 } },
    ]);
    expect(capture.init.unknownFields).toEqual({ tools: ['read', 'grep'], mcp_servers: [] });
    expect(capture.result.unknownFields).toEqual({ usage: { inputTokens: 10 } });
    expect(JSON.parse(s.messages[1]!.extensions!).unknownFields[0].fields).toEqual({
      novel_field: { depth: 2 },
    });
  });

  it('a session_id change inside one file refuses the whole source (typed CAPTURE_SESSION_ID_CHANGED)', async () => {
    const result = await read(sessionIdChange());
    expect(result.sessions).toEqual([]);
    expect(result.diagnostics[0]).toMatchObject({
      code: 'CAPTURE_SESSION_ID_CHANGED',
      severity: 'error',
      details: { line: 3, failClosed: true },
    });
  });

  it('a declared unknown major schema version fails closed before any row', async () => {
    const result = await read(unknownMajor());
    expect(result.sessions).toEqual([]);
    expect(result.diagnostics[0]).toMatchObject({
      code: 'CAPTURE_SCHEMA_UNSUPPORTED',
      details: { declared: '2' },
    });
  });

  it('Source Read Limits v1: a crossed jsonlRecordBytes refuses the capture as a whole (outcome fatal)', async () => {
    const limits = { ...DEFAULT_READ_LIMITS, jsonlRecordBytes: 100 };
    const result = await readCaptures([writeCapture(tempDir(), 'big.ndjson', completeBasic())], limits);
    expect(result.sessions).toEqual([]);
    expect(result.diagnostics[0]).toMatchObject({
      code: 'SOURCE_LIMIT_EXCEEDED',
      details: { bound: 'jsonlRecordBytes', limit: 100, outcome: 'fatal', failClosed: true },
    });
  });

  it('message identity does not depend on the path or on the capture being longer', async () => {
    const { provisional, complete } = provisionalThenComplete();
    const a = onlySession(await read(provisional));
    const b = onlySession(await read(complete));
    expect(a.session.fidelity).toBe('partial');
    expect(b.messages.slice(0, 2).map((m) => m.message_id)).toEqual(
      a.messages.slice(0, 2).map((m) => m.message_id),
    );
  });

  it('`interaction_update` events (flat or nested `update`) carry the content when no simplified event does', async () => {
    const s = onlySession(await read(interactionUpdates()));
    expect(s.session.fidelity).toBe('complete');
    expect(s.messages.map((m) => [m.role, m.content, m.thinking])).toEqual([
      ['user', 'List the files', null],
      ['assistant', 'Let me look.', 'Use ls.'],
      ['assistant', 'One file.', null],
    ]);
    expect(s.toolCalls.map((t) => [t.message_id, t.tool_id, t.name, t.status, t.result])).toEqual([
      [s.messages[1]!.message_id, 'c-40', 'shell', 'completed', '{"exitCode":0}'],
    ]);
    expect(JSON.parse(s.toolCalls[0]!.extensions!)).toMatchObject({ streamedOutput: 'a.txt\n' });
    const capture = extensions(s).capture as {
      interactionUpdates: string;
      unknownEvents: { event: { subtype: string } }[];
    };
    expect(capture.interactionUpdates).toBe('mapped');
    expect(capture.unknownEvents.map((e) => e.event.subtype)).toEqual(['step-completed', 'turn-ended']);
  });

  it('with simplified events present, `interaction_update` is redundant: kept verbatim, never appended twice', async () => {
    const s = onlySession(await read(interactionUpdatesRedundant()));
    expect(s.messages.map((m) => m.content)).toEqual([
      'Add a NOTES.md with one line',
      'I will check whether the file exists.',
      'Created NOTES.md.',
    ]);
    expect(extensions(s).capture).toMatchObject({ interactionUpdates: 'verbatim' });
    expect((extensions(s).capture as { unknownEvents: unknown[] }).unknownEvents).toHaveLength(1);
  });
});
