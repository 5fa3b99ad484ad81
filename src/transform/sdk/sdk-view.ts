/**
 * SDK agents in resolution (cursor-formats §3.3): turn k of the agent's view gains run k (model,
 * timing, usage, tool results); the rest is appended. Alone, each run is one `sdk:v1:run:<run_id>`
 * message. Existing IDs never change.
 */
import { isDeepStrictEqual } from 'node:util';
import type { SdkAgentContribution } from '../../extract/sdk/sdk-contribution.js';
import { normalizeWorkspacePath } from '../../shared/normalize-workspace-path.js';
import { rowSource } from '../row-source.js';
import { SessionUnavailable } from '../session-unavailable.js';
import type { SessionView, ViewMessage, ViewSourceInstance, ViewToolCall } from '../session-view.js';
import { ToolIdentityAllocator } from '../tool-identity.js';
import { WORKSPACE_UNKNOWN } from '../workspace/workspace-unknown.js';
import { readAgent, type SdkAgent, type SdkRun } from './sdk-agent.js';
import { SdkFieldProblems } from './sdk-cells.js';
import { agentFacts, callFacts, runDuration, runFacts, tokens } from './sdk-facts.js';
import { type SdkToolCall, toolKind } from './sdk-tool-calls.js';

/** The message ID of an SDK run that no transcript message stands for. */
export function sdkRunMessageId(runId: string): string {
  return `sdk:v1:run:${runId}`;
}

function instance(c: SdkAgentContribution, state: ViewSourceInstance['state'], reason: string | null) {
  return {
    sourceRole: 'store',
    representation: 'sdk-agent-store',
    state,
    occurrenceRef: c.occurrence.occurrenceRef,
    carrier: c.occurrence.carrier,
    workspacePath: c.occurrence.workspacePath,
    reasonCode: reason,
  } satisfies ViewSourceInstance;
}

function filesOf(args: Record<string, unknown> | null): string[] {
  if (args === null) return [];
  const files = [args.path, args.file, args.filePath, args.file_path, args.target_file].filter(
    (f): f is string => typeof f === 'string' && f.length > 0,
  );
  return [...new Set(files)];
}

function statusOf(call: SdkToolCall): string {
  if (call.error !== null || call.status === 'error') return 'error';
  return call.status ?? 'unknown';
}

/** An SDK call as a view tool call under `allocator` (tool identity v1 over `{name, params}`). */
function viewCall(
  call: SdkToolCall,
  allocator: ToolIdentityAllocator,
  c: SdkAgentContribution,
): ViewToolCall {
  return {
    toolId: allocator.next({ name: call.name, ...(call.args === null ? {} : { params: call.args }) }),
    toolIdOrigin: 'tool-v1',
    nativeCallId: call.callId,
    name: call.name,
    status: statusOf(call),
    params: call.args,
    result: call.result,
    error: call.error,
    files: filesOf(call.args),
    userDecision: null,
    extensions: { sdk: callFacts(call) },
    sources: call.eventRowids.map((rowid) => rowSource(c.occurrence, `sdk:run_event:${rowid}`)),
  };
}

function runMessage(run: SdkRun, c: SdkAgentContribution, parent: string | null): ViewMessage {
  const messageId = sdkRunMessageId(run.runId);
  const allocator = new ToolIdentityAllocator(messageId);
  const at = run.finishedAtMs ?? run.startedAtMs ?? run.createdAtMs;
  return {
    messageId,
    identityOrigin: 'sdk-v1',
    role: 'assistant',
    content: run.result ?? '',
    thinking: null,
    model: run.model,
    time:
      at === null
        ? { kind: 'missing', inferable: false }
        : { kind: 'direct', ms: at, source: 'store-turn-timing' },
    parentMessageId: parent,
    onActiveBranch: true,
    isSidechain: false,
    isCorrupted: false,
    inputTokens: tokens(run.usage?.inputTokens),
    outputTokens: tokens(run.usage?.outputTokens),
    durationMs: runDuration(run),
    origin: 'sdk',
    toolCalls: run.toolCalls.map((call) => viewCall(call, allocator, c)),
    extensions: { sdk: runFacts(run) },
    sources: [rowSource(c.occurrence, `sdk:run:${run.runId}`)],
  };
}

function withExtension(message: ViewMessage, facts: Record<string, unknown>): ViewMessage {
  return { ...message, extensions: { ...(message.extensions ?? {}), sdk: facts } };
}

/** The transcript's active-branch messages split into turns, each opened by a user message. */
function turnsOf(messages: readonly ViewMessage[]): number[][] {
  const turns: number[][] = [];
  messages.forEach((m, i) => {
    if (!m.onActiveBranch || m.isSidechain) return;
    if (m.role === 'user') turns.push([i]);
    else turns[turns.length - 1]?.push(i);
  });
  return turns;
}

/** Transcript calls take the next SDK call of the same tool kind, in order; the rest stay unpaired. */
function pairCalls(
  messages: ViewMessage[],
  turn: readonly number[],
  run: SdkRun,
  c: SdkAgentContribution,
): SdkToolCall[] {
  const used = new Set<number>();
  let cursor = 0;
  for (const index of turn) {
    const message = messages[index]!;
    if (message.role !== 'assistant' || message.toolCalls.length === 0) continue;
    const calls = message.toolCalls.map((call) => {
      let found = -1;
      for (let j = cursor; j < run.toolCalls.length; j++)
        if (!used.has(j) && toolKind(run.toolCalls[j]!.name) === toolKind(call.name)) {
          found = j;
          break;
        }
      if (found === -1) return call;
      used.add(found);
      cursor = found + 1;
      const sdk = run.toolCalls[found]!;
      return {
        ...call,
        status: statusOf(sdk),
        result: call.result ?? sdk.result,
        error: call.error ?? sdk.error,
        nativeCallId: call.nativeCallId ?? sdk.callId,
        extensions: { ...(call.extensions ?? {}), sdk: callFacts(sdk) },
        sources: [
          ...(call.sources ?? message.sources),
          ...sdk.eventRowids.map((rowid) => ({
            ...rowSource(c.occurrence, `sdk:run_event:${rowid}`),
            chosen: false,
          })),
        ],
      };
    });
    messages[index] = { ...message, toolCalls: calls };
  }
  return run.toolCalls.filter((_, j) => !used.has(j));
}

/** Appends unpaired SDK calls to `message`, continuing its tool identity counts. */
function appendCalls(
  message: ViewMessage,
  calls: readonly SdkToolCall[],
  c: SdkAgentContribution,
): ViewMessage {
  const allocator = new ToolIdentityAllocator(message.messageId);
  for (const call of message.toolCalls)
    allocator.next({ name: call.name, ...(call.params === null ? {} : { params: call.params }) });
  return {
    ...message,
    toolCalls: [...message.toolCalls, ...calls.map((call) => viewCall(call, allocator, c))],
  };
}

function enrichTurn(
  messages: ViewMessage[],
  turn: readonly number[],
  run: SdkRun,
  c: SdkAgentContribution,
): number | null {
  const [opener, ...rest] = turn;
  const user = messages[opener!]!;
  const start = run.startedAtMs ?? run.createdAtMs;
  messages[opener!] = withExtension(
    user.time.kind === 'missing' && start !== null
      ? { ...user, time: { kind: 'direct', ms: start, source: 'store-turn-timing' } }
      : user,
    runFacts(run),
  );
  const unpaired = pairCalls(messages, rest, run, c);
  const assistants = rest.filter((i) => messages[i]!.role === 'assistant');
  for (const i of assistants) messages[i] = { ...messages[i]!, model: messages[i]!.model ?? run.model };
  const last = assistants[assistants.length - 1];
  if (last === undefined) return null;
  let message = messages[last]!;
  message = {
    ...message,
    inputTokens: message.inputTokens ?? tokens(run.usage?.inputTokens),
    outputTokens: message.outputTokens ?? tokens(run.usage?.outputTokens),
    durationMs: message.durationMs ?? runDuration(run),
    time:
      message.time.kind === 'missing' && run.finishedAtMs !== null
        ? { kind: 'direct', ms: run.finishedAtMs, source: 'store-turn-timing' }
        : message.time,
  };
  messages[last] = unpaired.length > 0 ? appendCalls(message, unpaired, c) : message;
  return last;
}

function enrich(view: SessionView, agent: SdkAgent, c: SdkAgentContribution): SessionView {
  const messages = [...view.messages];
  const turns = turnsOf(messages);
  /** Runs without an assistant message in their turn: inserted after the turn, from the back. */
  const inserts: { after: number; run: SdkRun }[] = [];
  const paired = Math.min(turns.length, agent.runs.length);
  for (let k = 0; k < paired; k++) {
    const turn = turns[k]!;
    if (enrichTurn(messages, turn, agent.runs[k]!, c) === null)
      inserts.push({ after: turn[turn.length - 1]!, run: agent.runs[k]! });
  }
  for (const { after, run } of inserts.reverse())
    messages.splice(after + 1, 0, runMessage(run, c, messages[after]!.messageId));
  for (const run of agent.runs.slice(paired)) {
    const parent = [...messages].reverse().find((m) => m.onActiveBranch)?.messageId ?? null;
    messages.push(runMessage(run, c, parent));
  }
  return {
    ...view,
    title: view.title ?? agent.name,
    // The agent's own workspace fills a gap; a workspace known to be unknown (damaged) stays so.
    workspacePath:
      view.workspacePath ?? (view.reasonCodes.includes(WORKSPACE_UNKNOWN) ? null : workspaceOf(agent)),
    createdAt:
      view.createdAt ??
      (agent.createdAtMs === null ? null : { ms: agent.createdAtMs, source: 'sdk-agent-metadata' }),
    updatedAt:
      view.updatedAt ??
      (agent.updatedAtMs === null ? null : { ms: agent.updatedAtMs, source: 'sdk-agent-metadata' }),
    messages,
    extensions: {
      ...(view.extensions ?? {}),
      sdk: agentFacts(agent, { pairedTurns: paired, transcriptTurns: turns.length }),
    },
  };
}

function sdkOnlyView(agent: SdkAgent, c: SdkAgentContribution): SessionView {
  const messages: ViewMessage[] = [];
  for (const run of agent.runs)
    messages.push(runMessage(run, c, messages[messages.length - 1]?.messageId ?? null));
  return {
    sessionId: c.occurrence.sessionId,
    title: agent.name,
    workspacePath: workspaceOf(agent),
    resolvedSource: 'sdk-agent-store',
    preferredSource: null,
    // User prompts live only in the transcript (cursor-formats §3.1): without it the turns are half.
    fidelity: 'partial',
    resolutionState: 'partial',
    reasonCodes: ['sdk-transcript-missing'],
    createdAt: agent.createdAtMs === null ? null : { ms: agent.createdAtMs, source: 'sdk-agent-metadata' },
    updatedAt: agent.updatedAtMs === null ? null : { ms: agent.updatedAtMs, source: 'sdk-agent-metadata' },
    transcriptState: 'missing',
    contextTokensUsed: null,
    contextTokenLimit: null,
    parentSessionId: null,
    messages,
    instances: [],
    diagnostics: [],
    sourceKeys: [],
    extensions: { sdk: agentFacts(agent, { pairedTurns: 0, transcriptTurns: 0 }) },
  };
}

function workspaceOf(agent: SdkAgent): string | null {
  return agent.workspaceRef === null || agent.workspaceRef === ''
    ? null
    : normalizeWorkspacePath(agent.workspaceRef);
}

function degraded(view: SessionView, reason: string): SessionView {
  return {
    ...view,
    fidelity: 'partial',
    resolutionState: view.resolutionState === 'ambiguous' ? 'ambiguous' : 'partial',
    reasonCodes: view.reasonCodes.includes(reason) ? view.reasonCodes : [...view.reasonCodes, reason],
  };
}

/**
 * `view`: what the other Cursor representations resolved (null when the SDK store alone holds the
 * agent). Several index.db rows of one agent: the one with the most runs contributes (then the
 * smaller occurrence reference), the others are superseded.
 */
export function resolveWithSdk(
  view: SessionView | null,
  contributions: readonly SdkAgentContribution[],
): SessionView {
  const sessionId = contributions[0]!.occurrence.sessionId;
  const read = contributions
    .map((c) => {
      const problems = new SdkFieldProblems();
      const agent = c.data.status === 'read' ? readAgent(sessionId, c.data, problems) : null;
      return { c, agent, problems };
    })
    .sort(
      (a, b) =>
        (b.agent?.runs.length ?? -1) - (a.agent?.runs.length ?? -1) ||
        (a.c.occurrence.occurrenceRef < b.c.occurrence.occurrenceRef ? -1 : 1),
    );
  const chosen = read[0]!;
  const diagnostics = read.flatMap((r) => [...r.c.diagnostics, ...r.problems.diagnostics(sessionId)]);
  const others = read
    .slice(1)
    .map((r) =>
      r.agent === null
        ? instance(r.c, 'failed', 'source-unavailable')
        : isDeepStrictEqual(r.agent, chosen.agent)
          ? instance(r.c, 'equivalent-replica', null)
          : instance(r.c, 'superseded', 'sdk-replica'),
    );
  if (chosen.agent === null) {
    if (view === null) throw SessionUnavailable.of(sessionId, diagnostics);
    return degraded(
      {
        ...view,
        instances: [...view.instances, instance(chosen.c, 'failed', 'source-unavailable'), ...others],
        diagnostics: [...view.diagnostics, ...diagnostics],
        sourceKeys: [...view.sourceKeys, ...read.map((r) => r.c.occurrence.sourceKey)],
      },
      'sdk-store-unavailable',
    );
  }
  const base = view === null ? sdkOnlyView(chosen.agent, chosen.c) : enrich(view, chosen.agent, chosen.c);
  return {
    ...base,
    instances: [...base.instances, instance(chosen.c, 'contributed', null), ...others],
    diagnostics: [...base.diagnostics, ...diagnostics],
    sourceKeys: [...base.sourceKeys, ...read.map((r) => r.c.occurrence.sourceKey)],
  };
}
