/**
 * An SDK agent's `index.db` rows → typed runs and tool calls (cursor-formats §3.2). Runs are ordered
 * by `turn_number`, creation, rowid; the base of `turn_number` is never assumed (§10).
 */
import type { SdkAgentData, SdkRunRows } from '../../extract/sdk/sdk-contribution.js';
import { CellReader, type SdkFieldProblems } from './sdk-cells.js';
import { foldRunEvents, type SdkToolCall } from './sdk-tool-calls.js';

/** Per-run token usage (`usage_json`): the four disjoint buckets, reasoning ⊂ output, total. */
export interface SdkUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
  totalTokens?: number;
}
const USAGE_FIELDS = [
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'reasoningTokens',
  'totalTokens',
] as const;

export interface SdkRun {
  runId: string;
  rowid: number;
  turnNumber: number | null;
  status: string | null;
  model: string | null;
  errorCode: string | null;
  requestId: string | null;
  usage: SdkUsage | null;
  result: string | null;
  createdAtMs: number | null;
  startedAtMs: number | null;
  finishedAtMs: number | null;
  cancelledAtMs: number | null;
  expiredAtMs: number | null;
  toolCalls: SdkToolCall[];
  /** Count of non-tool stream messages by `message.type`; their text shape is not documented. */
  eventTypes: Record<string, number>;
}

export interface SdkAgent {
  agentId: string;
  name: string | null;
  status: string | null;
  workspaceRef: string | null;
  createdAtMs: number | null;
  updatedAtMs: number | null;
  runs: SdkRun[];
  /** Whether the `runs` table has `request_id` and `usage_json` (the newer schema). */
  hasUsageColumns: boolean;
}

function usageOf(reader: CellReader, problems: SdkFieldProblems): SdkUsage | null {
  const raw = reader.jsonObject('usage_json');
  if (raw === null) return null;
  const usage: SdkUsage = {};
  for (const field of USAGE_FIELDS) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) usage[field] = value;
    else problems.add('runs', `usage_json.${field}`, 'wrong-type');
  }
  return usage;
}

function runOf(rows: SdkRunRows, problems: SdkFieldProblems): SdkRun | null {
  const reader = new CellReader(rows.cells, 'runs', problems);
  const runId = reader.text('run_id');
  if (runId === null || runId === '') return null;
  const folded = foldRunEvents(rows.events, problems);
  return {
    runId,
    rowid: rows.rowid,
    turnNumber: reader.integer('turn_number'),
    status: reader.text('status'),
    model: reader.text('model'),
    errorCode: reader.text('error_code'),
    requestId: reader.text('request_id'),
    usage: usageOf(reader, problems),
    result: reader.text('result'),
    createdAtMs: reader.time('created_at'),
    startedAtMs: reader.time('started_at'),
    finishedAtMs: reader.time('finished_at'),
    cancelledAtMs: reader.time('cancelled_at'),
    expiredAtMs: reader.time('expired_at'),
    toolCalls: folded.toolCalls,
    eventTypes: folded.eventTypes,
  };
}

const nullsLast = (a: number | null, b: number | null): number =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a - b;

/** The typed agent, or null when its row vanished; `problems` collects every unreadable field. */
export function readAgent(
  sessionId: string,
  data: SdkAgentData,
  problems: SdkFieldProblems,
): SdkAgent | null {
  if (data.agent === null) return null;
  const agent = new CellReader(data.agent, 'agents', problems);
  const runs: SdkRun[] = [];
  for (const rows of data.runs) {
    const run = runOf(rows, problems);
    if (run === null) problems.add('runs', 'run_id', 'wrong-type');
    else runs.push(run);
  }
  runs.sort(
    (a, b) =>
      nullsLast(a.turnNumber, b.turnNumber) || nullsLast(a.createdAtMs, b.createdAtMs) || a.rowid - b.rowid,
  );
  return {
    agentId: sessionId,
    name: agent.text('name'),
    status: agent.text('status'),
    workspaceRef: agent.text('workspace_ref'),
    createdAtMs: agent.time('created_at'),
    updatedAtMs: agent.time('updated_at'),
    runs,
    hasUsageColumns: data.runColumns.includes('usage_json'),
  };
}
