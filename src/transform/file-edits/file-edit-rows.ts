/**
 * `file_edits` rows of one finalized session: the edits of its edit tool calls (edit-shapes.ts) and
 * its Composer code blocks, in message order, each with a normalized path and the user's decision.
 * Dropped hostile values are reported once per field.
 */
import type { FileEditRow, MessageRow, ToolCallRow } from '../../../schemas/tables.js';
import { type Diagnostic, diagnostic } from '../../shared/diagnostic.js';
import { normalizeWorkspacePath } from '../../shared/normalize-workspace-path.js';
import { jsonColumn } from '../json-column.js';
import { type EditCandidate, isEditTool, toolCallEdits } from './edit-shapes.js';

/** A Composer code block of a message that names a file (code-block-edits.ts). */
export interface CodeBlockEdit {
  messageId: string;
  candidate: EditCandidate;
  /** The code block's `status` as stored in `codeBlockData`, or null. */
  status: string | null;
}

export interface FileEditsInput {
  sessionId: string;
  workspacePath: string | null;
  messages: readonly Pick<MessageRow, 'message_id'>[];
  toolCalls: readonly Pick<
    ToolCallRow,
    'message_id' | 'tool_ordinal' | 'name' | 'params' | 'result' | 'user_decision'
  >[];
  codeBlocks?: readonly CodeBlockEdit[];
}

const DECISIONS = new Set(['accepted', 'rejected', 'pending']);
const OTHER_SCHEME = /^[a-z][a-z0-9+.-]+:/i;

/** A relative path with `\` as `/`, `.` and empty segments dropped; null when nothing is left. */
function relativePath(raw: string): string | null {
  const segments = raw
    .normalize('NFC')
    .replaceAll('\\', '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  return segments.length === 0 ? null : segments.join('/');
}

/** The stored path normalized: absolute or URI as a workspace path, relative joined to the workspace. */
export function editPath(raw: string, workspacePath: string | null): string | null {
  if (raw.trim().length === 0) return null;
  const absolute = normalizeWorkspacePath(raw);
  if (absolute !== null) return absolute;
  if (OTHER_SCHEME.test(raw) && !/^[a-z]:/i.test(raw)) return null;
  const relative = relativePath(raw);
  if (relative === null) return null;
  if (workspacePath === null) return relative;
  return normalizeWorkspacePath(`${workspacePath}/${relative}`) ?? relative;
}

function decisionOf(
  value: string | null,
  source: NonNullable<FileEditRow['decision_source']>,
  field: string,
  problems: string[],
): Pick<FileEditRow, 'user_decision' | 'decision_source'> {
  if (value !== null && DECISIONS.has(value))
    return { user_decision: value as FileEditRow['user_decision'], decision_source: source };
  if (value !== null && value !== '') problems.push(field);
  return { user_decision: 'unknown', decision_source: null };
}

function codeBlockDecision(status: string | null, problems: string[]): ReturnType<typeof decisionOf> {
  // `completed`, `applying`, `outdated`, … say nothing about the user's choice.
  if (status === 'accepted' || status === 'rejected')
    return { user_decision: status, decision_source: 'code-block-status' };
  if (status !== null && typeof status !== 'string') problems.push('codeBlockData.status');
  return { user_decision: 'unknown', decision_source: null };
}

export function fileEditRows(input: FileEditsInput): { rows: FileEditRow[]; diagnostics: Diagnostic[] } {
  const problems: string[] = [];
  const byMessage = new Map<string, FileEditRow[]>();
  const add = (
    messageId: string,
    toolOrdinal: number | null,
    toolName: string | null,
    candidate: EditCandidate,
    decision: ReturnType<typeof decisionOf>,
  ): void => {
    problems.push(...candidate.problems);
    const path = candidate.path === null ? null : editPath(candidate.path, input.workspacePath);
    if (candidate.path !== null && path === null) problems.push('path');
    const rows = byMessage.get(messageId) ?? [];
    byMessage.set(messageId, rows);
    rows.push({
      session_id: input.sessionId,
      message_id: messageId,
      tool_ordinal: toolOrdinal,
      edit_ordinal: 0,
      tool_name: toolName,
      path,
      workspace_path: input.workspacePath,
      lines_added: candidate.counts?.added ?? null,
      lines_removed: candidate.counts?.removed ?? null,
      diff: candidate.diff,
      old_text: candidate.oldText,
      new_text: candidate.newText,
      ...decision,
      extensions: candidate.extensions === null ? null : jsonColumn(candidate.extensions),
    });
  };
  for (const call of input.toolCalls) {
    if (!isEditTool(call.name)) continue;
    const decision = decisionOf(call.user_decision, 'tool-call-user-decision', 'user_decision', problems);
    for (const candidate of toolCallEdits(call.name, call.params, call.result))
      add(call.message_id, call.tool_ordinal, call.name, candidate, decision);
  }
  for (const block of input.codeBlocks ?? [])
    add(block.messageId, null, null, block.candidate, codeBlockDecision(block.status, problems));
  const rows: FileEditRow[] = [];
  for (const message of input.messages) {
    const edits = byMessage.get(message.message_id) ?? [];
    for (const [i, row] of edits.entries()) rows.push({ ...row, edit_ordinal: i });
  }
  return { rows, diagnostics: problemDiagnostics(input.sessionId, problems) };
}

function problemDiagnostics(sessionId: string, problems: readonly string[]): Diagnostic[] {
  const counts = new Map<string, number>();
  for (const field of problems) counts.set(field, (counts.get(field) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([field, count]) =>
      diagnostic(
        'FILE_EDIT_VALUE_INVALID',
        `${count} file edit value(s) of field ${field} were not usable and are stored as NULL or unknown`,
        { field, count },
        { sessionId },
      ),
    );
}
