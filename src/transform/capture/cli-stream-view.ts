/**
 * A Cursor CLI stream-json/json capture → SessionView. Assistant text is grouped into segments
 * between tool calls; with partial output only new deltas are appended. Complete only after a
 * terminal `result` success with `is_error` not true and no malformed line.
 */

import type { CliStreamContribution, JsonObject } from '../../extract/capture/capture-contribution.js';
import { readTimeField, type TimeProblem } from '../../shared/time/read-instant.js';
import { frameSource } from '../row-source.js';
import type { SessionView, ViewToolCall } from '../session-view.js';
import { ToolIdentityAllocator } from '../tool-identity.js';
import { CaptureMessageIds } from './capture-message-id.js';
import { captureMessage, captureView, linkParents } from './capture-view.js';
import { type CliToolFields, cliToolFields, interactionToolFields, toolStatus } from './cli-tool-call.js';
import { interactionDelta, interactionPayload } from './interaction-update.js';
import { captureReadDiagnostics } from './read-diagnostics.js';
import { advanceToolStatus } from './tool-status-order.js';
import { unknownFields } from './unknown-fields.js';

interface Segment {
  role: 'user' | 'assistant';
  text: string[];
  thinking: string[];
  tools: ViewToolCall[];
  firstMs: number | null;
  timeProblems: TimeProblem[];
  sealed: boolean;
  extra: JsonObject[];
  /** 1-based lines whose content the segment holds. */
  lines: number[];
}

const KNOWN = [
  'type',
  'subtype',
  'session_id',
  'message',
  'timestamp_ms',
  'model_call_id',
  'call_id',
  'tool_call',
  'text',
];
const SIMPLIFIED = new Set(['assistant', 'thinking', 'tool_call']);
const INIT_KNOWN = ['apiKeySource', 'cwd', 'model', 'permissionMode'];
const RESULT_KNOWN = ['is_error', 'duration_ms', 'duration_api_ms', 'result', 'request_id'];

function blocksText(event: JsonObject): string {
  const content = (event.message as { content?: unknown } | undefined)?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => (typeof block?.text === 'string' && (block.type ?? 'text') === 'text' ? block.text : ''))
    .join('');
}

function isPartialOutput(events: readonly JsonObject[]): boolean {
  return events.some(
    (e) => e.type === 'assistant' && typeof e.timestamp_ms === 'number' && e.model_call_id === undefined,
  );
}

export function cliStreamView(contribution: CliStreamContribution): SessionView {
  const { data, occurrence } = contribution;
  const events = data.records.map((record) => record.event);
  const partialOutput = isPartialOutput(events);
  // Either the SDK-shaped updates or the simplified events carry the content, never both.
  const mapInteractions = !events.some((e) => SIMPLIFIED.has(String(e.type)));
  const segments: Segment[] = [];
  const calls = new Map<string, ViewToolCall>();
  const unknownEvents: JsonObject[] = [];
  let open = null as Segment | null;
  let init: JsonObject | null = null;
  let result: JsonObject | null = null;
  let resultLine: number | null = null;
  let skippedFlushes = 0;
  const start = (role: Segment['role']): Segment => {
    const segment: Segment = {
      role,
      text: [],
      thinking: [],
      tools: [],
      firstMs: null,
      timeProblems: [],
      sealed: false,
      extra: [],
      lines: [],
    };
    segments.push(segment);
    return segment;
  };
  const textTarget = (): Segment => {
    if (open === null || open.sealed) open = start('assistant');
    return open;
  };
  const note = (segment: Segment, event: JsonObject, line: number): void => {
    const ms = readTimeField(event.timestamp_ms, 'cli.timestamp_ms', segment.timeProblems);
    if (segment.firstMs === null) segment.firstMs = ms;
    if (!segment.lines.includes(line)) segment.lines.push(line);
    const extra = unknownFields(event, KNOWN);
    if (extra !== null) segment.extra.push({ line, fields: extra });
  };
  const applyTool = (
    callId: string | null,
    subtype: string,
    fields: CliToolFields,
    event: JsonObject,
    line: number,
  ): void => {
    const segment: Segment =
      open ?? [...segments].reverse().find((s) => s.role === 'assistant') ?? start('assistant');
    open = segment;
    segment.sealed = true;
    const existing = callId === null ? undefined : calls.get(callId);
    const call: ViewToolCall = existing ?? {
      toolId: callId ?? '',
      toolIdOrigin: callId === null ? 'tool-v1' : 'source-native',
      nativeCallId: callId,
      name: fields.name,
      status: 'started',
      params: null,
      result: null,
      error: null,
      files: [],
      userDecision: null,
      extensions: { kind: fields.kindKey, lines: [] },
    };
    if (!existing) segment.tools.push(call);
    if (callId !== null) calls.set(callId, call);
    call.status = advanceToolStatus(existing?.status ?? null, toolStatus(subtype, fields.outcome));
    call.params = fields.args ?? call.params;
    call.result = fields.result ?? call.result;
    call.error = fields.error ?? call.error;
    if (fields.outcome === 'rejected') call.userDecision = 'rejected';
    const path = (fields.args as { path?: unknown } | null)?.path;
    if (typeof path === 'string' && !call.files.includes(path)) call.files.push(path);
    const lines = (call.extensions as { lines: unknown[] }).lines;
    lines.push({ line, subtype, kind: fields.kindKey, ...(unknownFields(event, KNOWN) ?? {}) });
  };
  for (const { event, line } of data.records) {
    if (event.type === 'system' && event.subtype === 'init') init = event;
    else if (event.type === 'user') {
      const segment = start('user');
      segment.text.push(blocksText(event));
      note(segment, event, line);
      open = null;
    } else if (event.type === 'assistant') {
      const isDelta = typeof event.timestamp_ms === 'number' && event.model_call_id === undefined;
      if (partialOutput && !isDelta) skippedFlushes++;
      else {
        if (!partialOutput && open !== null && open.text.length > 0) open.sealed = true;
        const segment = textTarget();
        segment.text.push(blocksText(event));
        note(segment, event, line);
      }
    } else if (event.type === 'thinking') {
      const segment = textTarget();
      if (event.subtype !== 'completed' || segment.thinking.length === 0)
        segment.thinking.push(typeof event.text === 'string' ? event.text : '');
      note(segment, event, line);
    } else if (event.type === 'tool_call') {
      const callId = typeof event.call_id === 'string' && event.call_id.length > 0 ? event.call_id : null;
      applyTool(callId, String(event.subtype ?? ''), cliToolFields(event), event, line);
    } else if (event.type === 'interaction_update' && mapInteractions) {
      const delta = interactionDelta(interactionPayload(event));
      const outputOf = delta?.kind === 'tool-output' ? calls.get(delta.callId ?? '') : undefined;
      if (delta?.kind === 'tool-output' && outputOf?.extensions) {
        const extensions = outputOf.extensions as { streamedOutput?: string };
        extensions.streamedOutput = (extensions.streamedOutput ?? '') + delta.text;
      } else if (delta === null || delta.kind === 'tool-output') unknownEvents.push({ line, event });
      else if (delta.kind === 'tool')
        applyTool(delta.callId, delta.phase, interactionToolFields(delta), event, line);
      else {
        const segment = textTarget();
        (delta.kind === 'text' ? segment.text : segment.thinking).push(delta.text);
        note(segment, event, line);
      }
    } else if (event.type === 'result') {
      result = event;
      resultLine = line;
    } else unknownEvents.push({ line, event });
  }
  if (!segments.some((s) => s.role === 'assistant') && typeof result?.result === 'string') {
    const fallback = start('assistant');
    fallback.text.push(result.result);
    if (resultLine !== null) fallback.lines.push(resultLine);
  }
  const frame = (line: number) => frameSource(occurrence, 'cli-stream', line - 1);
  const model = typeof init?.model === 'string' ? init.model : null;
  const ids = new CaptureMessageIds('cli-stream');
  const messages = segments.map((segment) => {
    const content = segment.text.join('');
    const messageId = ids.next(segment.role, content);
    const tools = new ToolIdentityAllocator(messageId);
    return captureMessage({
      messageId,
      identityOrigin: 'capture-v1',
      role: segment.role,
      content,
      thinking: segment.thinking.length > 0 ? segment.thinking.join('') : null,
      model: segment.role === 'assistant' ? model : null,
      time: {
        ...(segment.firstMs === null
          ? { kind: 'missing', inferable: true }
          : { kind: 'direct', ms: segment.firstMs, source: 'capture-event' }),
        ...(segment.timeProblems.length === 0 ? {} : { problems: segment.timeProblems }),
      },
      origin: 'cli',
      toolCalls: segment.tools.map((t) => ({
        ...t,
        ...(t.toolIdOrigin === 'tool-v1' ? { toolId: tools.next({ name: t.name, params: t.params }) } : {}),
        sources: (t.extensions as { lines: { line: number }[] }).lines.map((l) => frame(l.line)),
      })),
      extensions: segment.extra.length > 0 ? { unknownFields: segment.extra } : null,
      sources: segment.lines.map(frame),
    });
  });
  const succeeded = result?.subtype === 'success' && result.is_error !== true;
  const complete = succeeded && data.malformedLines.length === 0;
  const reasonCodes = complete ? [] : ['capture-provisional'];
  if (data.malformedLines.length > 0) reasonCodes.push('capture-malformed-line');
  return captureView(contribution, {
    resolvedSource: 'cli-stream',
    sourceRole: 'cli',
    complete,
    reasonCodes,
    title: null,
    createdAt: null,
    updatedAt: null,
    messages: linkParents(messages),
    diagnostics: captureReadDiagnostics(data, occurrence),
    extensions: {
      capture: {
        surface: 'cli-stream',
        lifecycle: complete ? 'complete' : 'provisional',
        partialOutput,
        flushesSkipped: skippedFlushes,
        interactionUpdates: events.some((e) => e.type === 'interaction_update')
          ? mapInteractions
            ? 'mapped'
            : 'verbatim'
          : null,
        init:
          init === null
            ? null
            : { ...pick(init, INIT_KNOWN), unknownFields: unknownFields(init, [...KNOWN, ...INIT_KNOWN]) },
        result:
          result === null
            ? null
            : {
                subtype: result.subtype ?? null,
                ...pick(
                  result,
                  RESULT_KNOWN.filter((k) => k !== 'result'),
                ),
                unknownFields: unknownFields(result, [...KNOWN, ...RESULT_KNOWN]),
              },
        unknownEvents,
        malformedLines: data.malformedLines,
        partialTail: data.partialTail,
      },
    },
  });
}

function pick(object: JsonObject, keys: readonly string[]): JsonObject {
  return Object.fromEntries(keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]));
}
