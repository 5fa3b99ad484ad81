/**
 * Folds Cloud Agents v1 records into the agent and its runs: SSE replays de-duplicated by (run,
 * event, id), deltas concatenated per run, tool calls merged by `callId`, `interaction_update` used
 * only without simplified events, REST snapshots for metadata and lifecycle.
 */

import type { CloudRecord, JsonObject } from '../../extract/capture/capture-contribution.js';
import { obj, str } from '../../extract/capture/json-values.js';
import { durationMsOrNull } from '../../shared/time/read-instant.js';
import { interactionDelta, interactionPayload } from './interaction-update.js';
import { advanceToolStatus } from './tool-status-order.js';

export interface CloudTool {
  callId: string;
  /** The `callId` the events carried; null when the call was keyed by its position. */
  nativeId: string | null;
  name: string;
  status: string;
  args: unknown;
  result: unknown;
  truncated: unknown;
  /** Shell output streamed by `interaction_update` deltas, concatenated (never a result). */
  output: string | null;
}

export interface CloudRun {
  runId: string;
  status: string | null;
  text: string[];
  thinking: string[];
  tools: Map<string, CloudTool>;
  resultText: string | null;
  durationMs: number | null;
  git: unknown;
  /** The run's token usage as the API reported it (read by the usage rows, never trusted here). */
  usage: unknown;
  /** As the API reported it; read by the time parser. */
  createdAt: unknown;
  errors: unknown[];
  connections: number[];
  resumedFrom: string[];
  otherEvents: JsonObject[];
  done: boolean;
  cancelRequested: boolean;
  /** Whether simplified content events (assistant, thinking, tool_call) were seen. */
  simplified: boolean;
  interactionUpdates: CloudRecord[];
  /** `mapped` when the run's content came from `interaction_update`, `verbatim` when they were redundant. */
  interactions: 'mapped' | 'verbatim' | null;
  /** The records whose text or thinking the run holds, in order. */
  contentRecords: CloudRecord[];
  /** The record whose `result` text the run holds, if any. */
  resultRecord: CloudRecord | null;
  /** The records each tool call was read from, by call ID. */
  toolRecords: Map<string, CloudRecord[]>;
}

export interface LifecycleEvent {
  state: 'archived' | 'unarchived' | 'deleted';
  receivedAt: string | null;
  line: number;
}

export interface CloudAgentState {
  agent: JsonObject | null;
  runs: CloudRun[];
  lifecycle: LifecycleEvent[];
  replaysSkipped: number;
  heartbeats: number;
  otherRecords: JsonObject[];
  /** Unknown fields of known records, by line. */
  extraFields: JsonObject[];
}

function newRun(runId: string): CloudRun {
  return {
    runId,
    status: null,
    text: [],
    thinking: [],
    tools: new Map(),
    resultText: null,
    durationMs: null,
    usage: null,
    git: null,
    createdAt: null,
    errors: [],
    connections: [],
    resumedFrom: [],
    otherEvents: [],
    done: false,
    cancelRequested: false,
    simplified: false,
    interactionUpdates: [],
    interactions: null,
    contentRecords: [],
    resultRecord: null,
    toolRecords: new Map(),
  };
}

class RunBook {
  readonly runs = new Map<string, CloudRun>();
  get(runId: string): CloudRun {
    let run = this.runs.get(runId);
    if (!run) {
      run = newRun(runId);
      this.runs.set(runId, run);
    }
    return run;
  }
  /** A REST run object: status and times the API reported. */
  snapshot(value: unknown, record: CloudRecord): void {
    const body = obj(value);
    const runId = str(body?.id);
    if (body === null || runId === null) return;
    const run = this.get(runId);
    run.status = str(body.status) ?? run.status;
    run.createdAt = body.createdAt ?? run.createdAt;
    if (str(body.result) !== null) {
      run.resultText = str(body.result);
      run.resultRecord = record;
    }
    if (typeof body.durationMs === 'number') run.durationMs = durationMsOrNull(body.durationMs);
    run.git = body.git ?? run.git;
    run.usage = body.usage ?? run.usage;
  }
}

function applySse(run: CloudRun, record: CloudRecord): void {
  const data = obj(record.data) ?? {};
  if (record.connection !== null && !run.connections.includes(record.connection))
    run.connections.push(record.connection);
  if (record.resumedFrom !== null && !run.resumedFrom.includes(record.resumedFrom))
    run.resumedFrom.push(record.resumedFrom);
  switch (record.event) {
    case 'status':
      run.status = str(data.status) ?? run.status;
      return;
    case 'assistant':
      run.simplified = true;
      run.text.push(typeof data.text === 'string' ? data.text : '');
      run.contentRecords.push(record);
      return;
    case 'thinking':
      run.simplified = true;
      run.thinking.push(typeof data.text === 'string' ? data.text : '');
      run.contentRecords.push(record);
      return;
    case 'tool_call':
      run.simplified = true;
      mergeTool(
        run,
        str(data.callId),
        {
          name: str(data.name),
          status: str(data.status),
          args: data.args,
          result: data.result,
          truncated: data.truncated,
        },
        record,
      );
      return;
    case 'interaction_update':
      run.interactionUpdates.push(record);
      return;
    case 'result':
      run.status = str(data.status) ?? run.status;
      if (typeof data.text === 'string') {
        run.resultText = data.text;
        run.resultRecord = record;
      }
      if (typeof data.durationMs === 'number') run.durationMs = durationMsOrNull(data.durationMs);
      run.git = data.git ?? run.git;
      return;
    case 'error':
      run.errors.push(record.data);
      return;
    case 'done':
      run.done = true;
      return;
    default:
      run.otherEvents.push({
        line: record.line,
        event: record.event,
        id: record.id,
        data: record.data,
      });
  }
}

function mergeTool(
  run: CloudRun,
  id: string | null,
  fields: {
    name: string | null;
    status: string | null;
    args?: unknown;
    result?: unknown;
    truncated?: unknown;
  },
  record: CloudRecord,
): CloudTool {
  const callId = id ?? `#${run.tools.size}`;
  run.toolRecords.set(callId, [...(run.toolRecords.get(callId) ?? []), record]);
  const prior = run.tools.get(callId);
  const tool: CloudTool = {
    callId,
    nativeId: id,
    name: fields.name ?? prior?.name ?? 'unknown',
    status: advanceToolStatus(prior?.status ?? null, fields.status ?? prior?.status ?? 'unknown'),
    args: fields.args ?? prior?.args ?? null,
    result: fields.result ?? prior?.result ?? null,
    truncated: fields.truncated ?? prior?.truncated ?? null,
    output: prior?.output ?? null,
  };
  run.tools.set(callId, tool);
  return tool;
}

/**
 * A run's `interaction_update` events: mapped when the run has no simplified content events, else
 * redundant (the same content twice) and kept verbatim. Unmapped variants are always kept verbatim.
 */
function applyInteractions(run: CloudRun): void {
  if (run.interactionUpdates.length === 0) return;
  run.interactions = run.simplified ? 'verbatim' : 'mapped';
  for (const record of run.interactionUpdates) {
    const delta = run.simplified ? null : interactionDelta(interactionPayload({ data: record.data }));
    if (delta === null)
      run.otherEvents.push({ line: record.line, event: record.event, id: record.id, data: record.data });
    else if (delta.kind === 'text' || delta.kind === 'thinking') {
      (delta.kind === 'text' ? run.text : run.thinking).push(delta.text);
      run.contentRecords.push(record);
    } else if (delta.kind === 'tool-output') {
      const tool = mergeTool(run, delta.callId, { name: null, status: null }, record);
      tool.output = (tool.output ?? '') + delta.text;
    } else
      mergeTool(
        run,
        delta.callId,
        {
          name: delta.name,
          status: delta.phase === 'completed' ? 'completed' : 'running',
          args: delta.args ?? undefined,
          result: delta.result ?? undefined,
        },
        record,
      );
  }
}

function applyRest(state: CloudAgentState, book: RunBook, record: CloudRecord): void {
  const endpoint = record.endpoint ?? '';
  const body = obj(record.body);
  const lifecycle = /\/(archive|unarchive)$/.exec(endpoint)?.[1];
  if (lifecycle === 'archive' || lifecycle === 'unarchive' || /^DELETE \/v1\/agents\/[^/]+$/.test(endpoint)) {
    const state_ =
      lifecycle === 'archive' ? 'archived' : lifecycle === 'unarchive' ? 'unarchived' : 'deleted';
    state.lifecycle.push({ state: state_, receivedAt: record.receivedAt, line: record.line });
    return;
  }
  if (/\/cancel$/.test(endpoint) && record.runId !== null) {
    book.get(record.runId).cancelRequested = true;
    return;
  }
  const agent = obj(body?.agent) ?? (/\/agents\/[^/]+$/.test(endpoint) && body?.id ? body : null);
  if (agent !== null) state.agent = { ...(state.agent ?? {}), ...agent };
  const runs = obj(body?.run) ? [body!.run] : /\/runs\/[^/]+$/.test(endpoint) ? [body] : [];
  if (/\/runs$/.test(endpoint) && Array.isArray(body?.items)) runs.push(...body.items);
  for (const run of runs) book.snapshot(run, record);
  if (agent === null && runs.length === 0)
    state.otherRecords.push({ line: record.line, endpoint: record.endpoint, body: record.body });
}

export function foldCloudRecords(records: readonly CloudRecord[]): CloudAgentState {
  const state: CloudAgentState = {
    agent: null,
    runs: [],
    lifecycle: [],
    replaysSkipped: 0,
    heartbeats: 0,
    otherRecords: [],
    extraFields: [],
  };
  const book = new RunBook();
  const seen = new Set<string>();
  for (const record of records) {
    if (record.unknownFields !== null)
      state.extraFields.push({ line: record.line, fields: record.unknownFields });
    if (record.kind === 'rest') applyRest(state, book, record);
    else if (record.kind === 'sse' && record.runId !== null) {
      if (record.event === 'heartbeat') {
        state.heartbeats++;
        continue;
      }
      if (record.id !== null) {
        const key = `${record.runId}\u0000${record.event}\u0000${record.id}`;
        if (seen.has(key)) {
          state.replaysSkipped++;
          continue;
        }
        seen.add(key);
      }
      applySse(book.get(record.runId), record);
    } else
      state.otherRecords.push({
        line: record.line,
        kind: record.kind,
        unknownFields: record.unknownFields,
      });
  }
  state.runs = [...book.runs.values()];
  for (const run of state.runs) applyInteractions(run);
  return state;
}
