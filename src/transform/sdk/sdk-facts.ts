/**
 * The SDK facts preserved as JSON (`extensions.sdk`): per run on the message opening its turn, per
 * call on the tool call, per agent on the session. IDs, names, statuses, models, usage and times
 * only; the workspace path is the session's `workspace_path`, never repeated here.
 */
import type { SdkAgent, SdkRun, SdkUsage } from './sdk-agent.js';
import type { SdkToolCall } from './sdk-tool-calls.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function runFacts(run: SdkRun): Record<string, unknown> {
  return {
    runId: run.runId,
    turnNumber: run.turnNumber,
    status: run.status,
    model: run.model,
    requestId: run.requestId,
    errorCode: run.errorCode,
    usage: run.usage,
    startedAt: iso(run.startedAtMs),
    finishedAt: iso(run.finishedAtMs),
    cancelledAt: iso(run.cancelledAtMs),
    expiredAt: iso(run.expiredAtMs),
    durationMs: runDuration(run),
    eventTypes: run.eventTypes,
  };
}

export function runDuration(run: SdkRun): number | null {
  const end = run.finishedAtMs ?? run.cancelledAtMs;
  return run.startedAtMs !== null && end !== null && end >= run.startedAtMs ? end - run.startedAtMs : null;
}

export function callFacts(call: SdkToolCall): Record<string, unknown> {
  return {
    callId: call.callId,
    name: call.name,
    status: call.status,
    args: call.args,
    resultStatus: call.resultStatus,
    durationMs: call.durationMs,
  };
}

function addUsage(total: Record<string, number>, usage: SdkUsage | null): void {
  if (usage === null) return;
  for (const [field, value] of Object.entries(usage)) total[field] = (total[field] ?? 0) + (value as number);
}

export function agentFacts(agent: SdkAgent, extra: Record<string, unknown>): Record<string, unknown> {
  const usage: Record<string, number> = {};
  for (const run of agent.runs) addUsage(usage, run.usage);
  return {
    name: agent.name,
    status: agent.status,
    runs: agent.runs.length,
    toolCalls: agent.runs.reduce((n, r) => n + r.toolCalls.length, 0),
    usage: agent.hasUsageColumns ? usage : null,
    schema: agent.hasUsageColumns ? 'runs-with-usage' : 'runs-without-usage',
    ...extra,
  };
}

/** A non-zero token count (zero means "not stored" on every Cursor surface), else null. */
export function tokens(value: number | undefined): number | null {
  return value === undefined || value === 0 ? null : value;
}
