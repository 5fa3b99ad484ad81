/**
 * SDK run events → tool calls (cursor-formats §3.2): updates of one `call_id` fold into one call in
 * order of `seq`; the last non-empty `args` win, the result comes from the terminal update, the
 * duration spans the first to the last event. Other stream messages are only counted by type.
 */
import type { SdkEventRow } from '../../extract/sdk/sdk-contribution.js';
import { canonicalJson } from '../../shared/json/canonical-json.js';
import { CellReader, type SdkFieldProblems } from './sdk-cells.js';

export interface SdkToolCall {
  callId: string;
  /** The name as stored (`shell`, or dotted `shell.execute`). */
  name: string;
  /** The last status an update stored (`running`, `completed`, `error`), or null. */
  status: string | null;
  args: Record<string, unknown> | null;
  /** Result text of the terminal update (JSON text when the value is JSON), or null. */
  result: string | null;
  error: string | null;
  /** `result.status` of the terminal update when it stored one (`success`, `error`). */
  resultStatus: string | null;
  durationMs: number | null;
  /** Rowids of the `run_events` rows the call was folded from. */
  eventRowids: number[];
}

const TERMINAL = new Set(['completed', 'error']);

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function readResult(value: unknown): Pick<SdkToolCall, 'result' | 'error' | 'resultStatus'> {
  if (typeof value === 'string') return { result: value, error: null, resultStatus: null };
  if (!isObject(value)) return { result: canonicalJson(value), error: null, resultStatus: null };
  const status = typeof value.status === 'string' ? value.status : null;
  const errorText = typeof value.error === 'string' ? value.error : null;
  const body = value.value === undefined ? value : value.value;
  if (status === 'error' || errorText !== null)
    return { result: null, error: errorText ?? canonicalJson(body), resultStatus: status };
  return { result: typeof body === 'string' ? body : canonicalJson(body), error: null, resultStatus: status };
}

interface Pending {
  call: SdkToolCall;
  firstMs: number | null;
  lastMs: number | null;
}

/** The payload's `message` object, or null (counted as damage when the payload is present). */
function streamMessage(reader: CellReader, problems: SdkFieldProblems): Record<string, unknown> | null {
  const payload = reader.jsonObject('payload_json');
  if (payload === null) return null;
  if (isObject(payload.message)) return payload.message;
  problems.add('run_events', 'payload_json.message', 'wrong-type');
  return null;
}

export function foldRunEvents(
  events: readonly SdkEventRow[],
  problems: SdkFieldProblems,
): { toolCalls: SdkToolCall[]; eventTypes: Record<string, number> } {
  const ordered = events
    .map((event) => {
      const reader = new CellReader(event.cells, 'run_events', problems);
      return { event, reader, seq: reader.integer('seq') };
    })
    .sort(
      (a, b) =>
        (a.seq ?? Number.MAX_SAFE_INTEGER) - (b.seq ?? Number.MAX_SAFE_INTEGER) ||
        a.event.rowid - b.event.rowid,
    );
  const calls = new Map<string, Pending>();
  const eventTypes: Record<string, number> = {};
  for (const { event, reader } of ordered) {
    const at = reader.time('created_at');
    const message = streamMessage(reader, problems);
    if (message === null) continue;
    const type = typeof message.type === 'string' ? message.type : null;
    if (type === null) {
      problems.add('run_events', 'payload_json.message.type', 'wrong-type');
      continue;
    }
    if (type !== 'tool_call') {
      eventTypes[type] = (eventTypes[type] ?? 0) + 1;
      continue;
    }
    const callId = typeof message.call_id === 'string' && message.call_id !== '' ? message.call_id : null;
    if (callId === null) {
      problems.add('run_events', 'payload_json.message.call_id', 'wrong-type');
      continue;
    }
    let pending = calls.get(callId);
    if (!pending) {
      pending = {
        call: {
          callId,
          name: '',
          status: null,
          args: null,
          result: null,
          error: null,
          resultStatus: null,
          durationMs: null,
          eventRowids: [],
        },
        firstMs: at,
        lastMs: at,
      };
      calls.set(callId, pending);
    }
    const { call } = pending;
    call.eventRowids.push(event.rowid);
    if (at !== null) {
      pending.firstMs ??= at;
      pending.lastMs = at;
    }
    if (typeof message.name === 'string' && message.name !== '') call.name = message.name;
    else if (message.name !== undefined)
      problems.add('run_events', 'payload_json.message.name', 'wrong-type');
    if (isObject(message.args)) {
      if (Object.keys(message.args).length > 0) call.args = message.args;
    } else if (message.args !== undefined && message.args !== null)
      problems.add('run_events', 'payload_json.message.args', 'wrong-type');
    if (typeof message.status === 'string') call.status = message.status;
    else if (message.status !== undefined)
      problems.add('run_events', 'payload_json.message.status', 'wrong-type');
    if (
      message.result !== undefined &&
      message.result !== null &&
      (call.status === null || TERMINAL.has(call.status))
    )
      Object.assign(call, readResult(message.result));
  }
  const toolCalls = [...calls.values()].map(({ call, firstMs, lastMs }) => ({
    ...call,
    name: call.name === '' ? 'unknown' : call.name,
    durationMs: firstMs !== null && lastMs !== null && lastMs >= firstMs ? lastMs - firstMs : null,
  }));
  return { toolCalls, eventTypes };
}

/** The tool kind behind stored names: dotted (`file.read`) and plain (`read`) spellings meet. */
export function toolKind(name: string): string {
  const lower = name.toLowerCase();
  const dotted: Record<string, string> = {
    'shell.execute': 'shell',
    'file.read': 'read',
    'file.edit': 'edit',
    'file.write': 'write',
  };
  return dotted[lower] ?? lower;
}
