/** Turns a resolved SessionView into warehouse rows: times, keys, JSON columns and the digest. */
import type { MessageRow, SourceInstanceRow, ToolCallRow } from '../../schemas/tables.js';
import type { Diagnostic } from '../shared/diagnostic.js';
import { canonicalJson } from '../shared/json/canonical-json.js';
import type { TimeProblem } from '../shared/time/read-instant.js';
import { messageArchiveKey, sessionArchiveKey, toolArchiveKey } from './archive-keys.js';
import { codeBlockEdits } from './file-edits/code-block-edits.js';
import { fileEditRows } from './file-edits/file-edit-rows.js';
import { jsonColumn } from './json-column.js';
import type { NormalizedSession } from './normalized-session.js';
import { rowProvenanceRows } from './row-provenance.js';
import { deriveSessionTimes, resolveMessageTimes } from './session-times.js';
import type { SessionView } from './session-view.js';
import { resolveSubagentLink } from './subagent-link.js';
import { timeDiagnostics } from './time-diagnostics.js';
import { usageRows } from './usage/usage-rows.js';
import { computeViewDigest } from './view-digest.js';

function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : jsonColumn(value);
}

function sumOrNull(values: (number | null)[]): number | null {
  let total: number | null = null;
  for (const value of values) if (value !== null && value !== 0) total = (total ?? 0) + value;
  return total;
}

/** The view's diagnostics plus one per rejected message time field, then the subagent link's. */
function sessionDiagnostics(view: SessionView, linkDiagnostics: readonly Diagnostic[]): Diagnostic[] {
  const problems: TimeProblem[] = [];
  for (const message of view.messages) if (message.time.problems) problems.push(...message.time.problems);
  const out =
    problems.length === 0
      ? view.diagnostics
      : [...view.diagnostics, ...timeDiagnostics(problems, view.sessionId)];
  return linkDiagnostics.length === 0 ? out : [...out, ...linkDiagnostics];
}

/** `digest` false leaves `view_digest` empty for a caller that rewrites the rows and digests them. */
/** The order of a session's source instances (their `instance_ordinal`): representation, then reference. */
export function compareInstances(
  representationA: string,
  refA: string,
  representationB: string,
  refB: string,
): number {
  if (representationA !== representationB) return representationA < representationB ? -1 : 1;
  return refA < refB ? -1 : refA > refB ? 1 : 0;
}

export function finalizeSession(view: SessionView, digest = true): NormalizedSession {
  const { createdAt, updatedAt } = deriveSessionTimes(view.messages, view.createdAt, view.updatedAt);
  const times = resolveMessageTimes(view.messages, createdAt);
  const messages: MessageRow[] = [];
  const toolCalls: ToolCallRow[] = [];
  view.messages.forEach((message, ordinal) => {
    const key = messageArchiveKey(view.sessionId, message.messageId);
    const time = times[ordinal]!;
    messages.push({
      session_id: view.sessionId,
      message_id: message.messageId,
      archive_key: key,
      ordinal,
      role: message.role,
      content: message.content,
      thinking: message.thinking,
      model: message.model,
      timestamp: time.ms,
      timestamp_source: time.source,
      parent_message_id: message.parentMessageId,
      on_active_branch: message.onActiveBranch,
      is_sidechain: message.isSidechain,
      is_corrupted: message.isCorrupted,
      input_tokens: message.inputTokens,
      output_tokens: message.outputTokens,
      duration_ms: message.durationMs,
      origin: message.origin,
      identity_origin: message.identityOrigin,
      extensions: jsonOrNull(message.extensions),
    });
    message.toolCalls.forEach((call, toolOrdinal) => {
      toolCalls.push({
        session_id: view.sessionId,
        message_id: message.messageId,
        tool_ordinal: toolOrdinal,
        archive_key: toolArchiveKey(key, toolOrdinal),
        tool_id: call.toolId,
        tool_id_origin: call.toolIdOrigin,
        name: call.name,
        status: call.status,
        params: jsonOrNull(call.params),
        result: call.result,
        error: call.error,
        files: jsonColumn(call.files),
        user_decision: call.userDecision,
        extensions: jsonOrNull(call.extensions),
        native_call_id: call.nativeCallId,
      });
    });
  });
  const sourceInstances: SourceInstanceRow[] = [...view.instances]
    .sort((a, b) => compareInstances(a.representation, a.occurrenceRef, b.representation, b.occurrenceRef))
    .map((instance, index) => ({
      session_id: view.sessionId,
      instance_ordinal: index,
      source_role: instance.sourceRole,
      representation: instance.representation,
      state: instance.state,
      occurrence_ref: instance.occurrenceRef,
      carrier: instance.carrier,
      workspace_path: instance.workspacePath,
      reason_code: instance.reasonCode,
      origin: null,
    }));
  const subagent = resolveSubagentLink(view);
  const session = {
    session_id: view.sessionId,
    archive_key: sessionArchiveKey(view.sessionId),
    title: view.title,
    workspace_path: view.workspacePath,
    resolved_source: view.resolvedSource,
    preferred_source: view.preferredSource,
    fidelity: view.fidelity,
    source: view.fidelity === 'complete' ? ('global' as const) : ('workspace-fallback' as const),
    resolution_state: view.resolutionState,
    reason_codes: canonicalJson([...view.reasonCodes].sort()),
    created_at: createdAt.ms,
    created_at_source: createdAt.source,
    updated_at: updatedAt.ms,
    updated_at_source: updatedAt.source,
    message_count: messages.length,
    tool_call_count: toolCalls.length,
    transcript_state: view.transcriptState,
    context_tokens_used: view.contextTokensUsed,
    context_token_limit: view.contextTokenLimit,
    total_input_tokens: sumOrNull(view.messages.map((m) => m.inputTokens)),
    total_output_tokens: sumOrNull(view.messages.map((m) => m.outputTokens)),
    parent_session_id: subagent.link.parent_session_id,
    message_identity_version: 1,
    extensions: jsonOrNull(view.extensions),
    root_session_id: subagent.link.root_session_id,
    spawn_tool_call_id: subagent.link.spawn_tool_call_id,
    subagent_type: subagent.link.subagent_type,
    // Stamped by the run that loads the session (provenance, outside the digest).
    origin: null,
  };
  const usage = usageRows(view, messages);
  const view_digest = digest
    ? computeViewDigest({ session, messages, toolCalls, sourceInstances, usage: usage.rows })
    : '';
  const edits = fileEditRows({
    sessionId: view.sessionId,
    workspacePath: view.workspacePath,
    messages,
    toolCalls,
    codeBlocks: codeBlockEdits(view.codeBlockData, view.messages, view.codeBlockDiffs),
  });
  return {
    session: { ...session, view_digest },
    messages,
    toolCalls,
    sourceInstances,
    rowProvenance: rowProvenanceRows(view.sessionId, view.messages, messages, toolCalls, sourceInstances),
    fileEdits: edits.rows,
    usage: usage.rows,
    diagnostics: [
      ...sessionDiagnostics(view, [...subagent.diagnostics, ...usage.diagnostics]),
      ...edits.diagnostics,
    ],
    sourceKeys: [...new Set(view.sourceKeys)].sort(),
  };
}
