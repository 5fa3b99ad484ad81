/**
 * A Cloud Agents v1 capture → SessionView: session = agent, one assistant message per run, runs in
 * first-seen order; lifecycle states go to `extensions.capture.lifecycle`. Complete once the latest
 * run is terminal or the agent archived or deleted, with no malformed line.
 */
import type { CloudCaptureContribution, CloudRecord } from '../../extract/capture/capture-contribution.js';
import { diagnostic } from '../../shared/diagnostic.js';
import { canonicalJson } from '../../shared/json/canonical-json.js';
import { readTimeField, type TimeProblem } from '../../shared/time/read-instant.js';
import { rowSource } from '../row-source.js';
import type { RowSource, SessionTime, SessionView, ViewToolCall } from '../session-view.js';
import { timeDiagnostics } from '../time-diagnostics.js';
import { captureMessage, captureView, linkParents } from './capture-view.js';
import { type CloudRun, foldCloudRecords } from './cloud-runs.js';
import { captureReadDiagnostics } from './read-diagnostics.js';

export const RUN_STATUS_LIFECYCLE: Readonly<Record<string, string>> = {
  CREATING: 'pending',
  RUNNING: 'running',
  FINISHED: 'complete',
  ERROR: 'failed',
  CANCELLED: 'cancelled',
  EXPIRED: 'expired',
};

const TERMINAL = new Set(['FINISHED', 'ERROR', 'CANCELLED', 'EXPIRED']);

/** A capture's session time field; a rejected value is recorded in `problems`. */
export function metadataTime(value: unknown, field: string, problems: TimeProblem[]): SessionTime | null {
  const ms = readTimeField(value, field, problems);
  return ms === null ? null : { ms, source: 'capture-metadata' };
}

/** A capture record: by JSONL frame, by SSE line in a raw stream; SSE events also by event ID. */
function recordSource(contribution: CloudCaptureContribution, record: CloudRecord): RowSource {
  const { occurrence } = contribution;
  const event = record.id === null ? '' : `#event:${record.id}`;
  const frame = record.line - 1;
  return contribution.data.format === 'capture-jsonl'
    ? rowSource(occurrence, `cloud-capture:frame:${frame}${event}`, frame)
    : rowSource(occurrence, `cloud-sse:line:${frame}${event}`);
}

function toolCalls(run: CloudRun, source: (record: CloudRecord) => RowSource): ViewToolCall[] {
  return [...run.tools.values()].map((tool) => ({
    sources: (run.toolRecords.get(tool.callId) ?? []).map(source),
    toolId: tool.callId,
    toolIdOrigin: 'source-native',
    nativeCallId: tool.nativeId,
    name: tool.name,
    status: tool.status,
    params: tool.args ?? null,
    result: tool.result === null || tool.result === undefined ? null : canonicalJson(tool.result),
    error: null,
    files: [],
    userDecision: null,
    extensions:
      tool.truncated === null && tool.output === null
        ? null
        : {
            ...(tool.truncated === null ? {} : { truncated: tool.truncated }),
            ...(tool.output === null ? {} : { streamedOutput: tool.output }),
          },
  }));
}

export function cloudAgentView(contribution: CloudCaptureContribution): SessionView {
  const { data, occurrence } = contribution;
  const state = foldCloudRecords(data.records);
  const problems: TimeProblem[] = [];
  const messages = state.runs.map((run) => {
    const runProblems: TimeProblem[] = [];
    const created = readTimeField(run.createdAt, 'cloud.run.createdAt', runProblems);
    return captureMessage({
      messageId: run.runId,
      identityOrigin: 'capture-native',
      role: 'assistant',
      content: run.text.length > 0 ? run.text.join('') : (run.resultText ?? ''),
      thinking: run.thinking.length > 0 ? run.thinking.join('') : null,
      time: {
        ...(created === null
          ? { kind: 'missing', inferable: true }
          : { kind: 'direct', ms: created, source: 'capture-event' }),
        ...(runProblems.length === 0 ? {} : { problems: runProblems }),
      },
      origin: 'cloud',
      durationMs: run.durationMs,
      toolCalls: toolCalls(run, (record) => recordSource(contribution, record)),
      sources: (run.text.length > 0 || run.resultRecord === null
        ? run.contentRecords
        : [run.resultRecord]
      ).map((record) => recordSource(contribution, record)),
      extensions: {
        runStatus: run.status,
        runLifecycle: run.status === null ? 'unknown' : (RUN_STATUS_LIFECYCLE[run.status] ?? 'unknown'),
        streamDone: run.done,
        cancelRequested: run.cancelRequested,
        connections: run.connections,
        resumedFrom: run.resumedFrom,
        git: run.git ?? null,
        ...(run.usage === null ? {} : { usage: run.usage }),
        errors: run.errors,
        ...(run.interactions === null ? {} : { interactionUpdates: run.interactions }),
        otherEvents: run.otherEvents,
      },
    });
  });
  const last = state.runs[state.runs.length - 1];
  const lifecycle = state.lifecycle[state.lifecycle.length - 1]?.state ?? null;
  const closed = lifecycle === 'archived' || lifecycle === 'deleted';
  const terminal = last?.status !== undefined && last.status !== null && TERMINAL.has(last.status);
  const complete = (terminal || closed) && data.malformedLines.length === 0;
  const reasonCodes = complete ? [] : ['capture-provisional'];
  if (data.malformedLines.length > 0) reasonCodes.push('capture-malformed-line');
  const diagnostics = captureReadDiagnostics(data, occurrence);
  if (data.unattributedRecords > 0)
    diagnostics.push(
      diagnostic(
        'CAPTURE_RECORD_UNATTRIBUTED',
        'Capture records naming no agent were not attributed to any agent of a multi-agent file',
        { count: data.unattributedRecords },
        { sessionId: occurrence.sessionId, sourceRef: occurrence.occurrenceRef },
      ),
    );
  const agent = state.agent;
  return captureView(contribution, {
    resolvedSource: 'cloud-agent',
    sourceRole: 'cloud',
    complete,
    reasonCodes,
    title: typeof agent?.name === 'string' && agent.name.length > 0 ? agent.name : null,
    createdAt: metadataTime(agent?.createdAt, 'cloud.agent.createdAt', problems),
    updatedAt: metadataTime(agent?.updatedAt, 'cloud.agent.updatedAt', problems),
    messages: linkParents(messages),
    diagnostics: [...diagnostics, ...timeDiagnostics(problems, occurrence.sessionId)],
    extensions: {
      capture: {
        surface: 'cloud-agent',
        format: data.format,
        agentIdKnown: data.agentIdKnown,
        lifecycle: complete ? 'complete' : 'provisional',
        agentState: lifecycle ?? (typeof agent?.status === 'string' ? agent.status : null),
        lifecycleEvents: state.lifecycle,
        agent,
        replaysSkipped: state.replaysSkipped,
        heartbeats: state.heartbeats,
        otherRecords: state.otherRecords,
        extraFields: state.extraFields,
        malformedLines: data.malformedLines,
        partialTail: data.partialTail,
      },
    },
  });
}
