/**
 * The normalized rows of the warehouse. Timestamps are epoch milliseconds in rows and TIMESTAMP
 * (UTC) in DuckDB; `json` columns hold canonical JSON text.
 */
import { column, defineTable, nullable, oneOf, type RowOf } from './table-definition.js';

export const RESOLVED_SOURCES = [
  'composer',
  'store-db',
  'store-transcript',
  'store-metadata',
  'merged',
  'cli-stream',
  'cloud-agent',
  'markdown-export',
  'sdk-agent-store',
] as const;
export const FIDELITIES = ['complete', 'partial'] as const;
export const LEGACY_SOURCES = ['global', 'workspace-fallback'] as const;
export const RESOLUTION_STATES = ['complete', 'partial', 'ambiguous'] as const;
export const SESSION_TIME_SOURCES = [
  'composer-metadata',
  'store-db-metadata',
  'store-meta',
  'capture-metadata',
  'sdk-agent-metadata',
  'direct-message',
  'epoch-unknown',
] as const;
export const MESSAGE_TIME_SOURCES = [
  'composer-created-at',
  'composer-timing',
  'store-turn-timing',
  'capture-event',
  'inferred-next',
  'inferred-previous',
  'session-fallback',
  'unknown',
] as const;
export const IDENTITY_ORIGINS = [
  'composer-native',
  'composer-v0.16-index',
  'store-db-v1',
  'store-transcript-v1',
  'capture-native',
  'capture-v1',
  'agentkv-v1',
  'sdk-v1',
] as const;
export const MESSAGE_ORIGINS = [
  'composer',
  'store',
  'both',
  'cli',
  'cloud',
  'markdown',
  'agentkv',
  'sdk',
] as const;
export const SOURCE_ROLES = ['composer', 'store', 'cli', 'cloud', 'markdown'] as const;
export const REPRESENTATIONS = [
  'composer-global',
  'composer-agentkv',
  'composer-workspace',
  'store-db',
  'store-transcript',
  'store-metadata',
  'cli-stream',
  'cloud-capture',
  'markdown-export',
  'sdk-agent-store',
  'ai-code-tracking',
] as const;
export const INSTANCE_STATES = [
  'contributed',
  'equivalent-replica',
  'omitted-by-scope',
  'failed',
  'superseded',
] as const;
export const CARRIERS = ['live', 'custom', 'backup', 'capture'] as const;

export const sessionsTable = defineTable('sessions', 'One row per logical Cursor session (conversation).', {
  session_id: column(
    'text',
    'Native Cursor session ID, byte-exact and case-sensitive. A compact Store directory `chats/<32 hex>/` names the session of those characters re-dashed 8-4-4-4-12, letters as spelled.',
  ),
  archive_key: column('text', 'Downstream key `cursor:<session_id>`.'),
  title: nullable('text', 'Session title from the source metadata; NULL when the source has none.'),
  workspace_path: nullable(
    'text',
    'Normalized workspace path the session belongs to; NULL when the source gives no path, or when it is unknown: damaged workspace metadata (then `reason_codes` holds `workspace-unknown` and the row is partial).',
  ),
  resolved_source: oneOf(RESOLVED_SOURCES, 'Representation the resolved view was built from.'),
  preferred_source: oneOf(
    ['composer', 'store'],
    'Merge orientation for merged sessions (which side wins scalar values); NULL otherwise.',
    true,
  ),
  fidelity: oneOf(
    FIDELITIES,
    '`complete` views are safe to replace an archived session; `partial` never are.',
  ),
  source: oneOf(
    LEGACY_SOURCES,
    'Legacy fidelity signal: `global` = complete, `workspace-fallback` = partial.',
  ),
  resolution_state: oneOf(RESOLUTION_STATES, '`ambiguous` rows carry no messages: divergent replicas exist.'),
  reason_codes: column('json', 'JSON array of resolution reason codes (e.g. `workspace-scope-omitted`).'),
  created_at: column('timestamp', 'Session creation time (UTC).'),
  created_at_source: oneOf(SESSION_TIME_SOURCES, 'Where `created_at` came from.'),
  updated_at: column('timestamp', 'Session last-update time (UTC).'),
  updated_at_source: oneOf(SESSION_TIME_SOURCES, 'Where `updated_at` came from.'),
  message_count: column('int', 'Number of rows in `messages` for this session.'),
  tool_call_count: column('int', 'Number of rows in `tool_calls` for this session.'),
  transcript_state: nullable(
    'text',
    'Store transcript state (parsed, partial, empty, error-only, unsupported, unreadable, missing).',
  ),
  context_tokens_used: nullable('bigint', 'Composer `contextTokensUsed`, when stored.'),
  context_token_limit: nullable('bigint', 'Composer `contextTokenLimit`, when stored.'),
  total_input_tokens: nullable('bigint', 'Sum of non-zero per-message input tokens; NULL when none known.'),
  total_output_tokens: nullable('bigint', 'Sum of non-zero per-message output tokens; NULL when none known.'),
  parent_session_id: nullable(
    'text',
    'Parent session of a subagent session, from the strongest source that names one (docs/compatibility-matrix.md#subagent-links); NULL for a top-level session.',
  ),
  view_digest: column(
    'text',
    'SHA-256 of the canonical JSON of the session content rows; where the data was read from stays out (docs/workspaces.md).',
  ),
  message_identity_version: column('int', 'Message identity version; always 1.'),
  extensions: nullable(
    'json',
    'Unknown or source-specific fields preserved as JSON. Composer sessions: `agentKv` (blob counts by kind, links, hash-mismatch blob IDs, `possiblyEncrypted`, `systemPrompt`, `unmatchedRequests`, `loadedMessages`) and `hadBlobEncryptionKey`/`hadSpeculativeSummarizationEncryptionKey` (never the key); `usageData`: a non-empty `composerData.usageData` as stored, never read into `usage`. Sessions named by the AI code tracking DB: `aiCodeTracking` (`summary`, `aiLines`, `humanLines`, `attribution` per request/file/source/model, `deletedFiles`). SDK agents: `sdk` with the agent `name`, `status`, `runs`, `toolCalls`, summed `usage` (NULL on the older `runs` schema), `schema` and `pairedTurns`/`transcriptTurns`.',
  ),
  root_session_id: nullable(
    'text',
    'Root of the subagent chain as a source states it (`rootParentConversationId`, `rootParentAgentId`); NULL when none does (`v_subagent_tree` derives it from the parent links).',
  ),
  spawn_tool_call_id: nullable(
    'text',
    "The parent's `Task` tool call that spawned this subagent (`subagentInfo.toolCallId`); joins `tool_calls.native_call_id` of the parent session.",
  ),
  subagent_type: nullable('text', 'Subagent type as stored (`explore`, `generalPurpose`, `shell`, …).'),
  origin: nullable(
    'text',
    'The origin (machine/profile name, docs/team-archive.md) whose run last wrote the session; provenance, never part of the identity or the digest. NULL for rows archived before origins.',
  ),
});

export const messagesTable = defineTable('messages', 'One row per message of a session, in display order.', {
  session_id: column('text', 'Owning session.'),
  message_id: column(
    'text',
    'Stable message identity v1 (native bubble ID, `msg:<i>`, `store:v1:…`, `agentkv:v1:<blob sha256>:<n>`, `sdk:v1:run:<run_id>`).',
  ),
  archive_key: column('text', 'Downstream key `cursor:<session_id>:<message_id>`.'),
  ordinal: column('int', 'Zero-based display position within the session.'),
  role: oneOf(['user', 'assistant'], 'Message role.'),
  content: column('text', 'Full message text (never display-truncated); a placeholder when corrupted.'),
  thinking: nullable('text', 'Reasoning text when the source stores it.'),
  model: nullable('text', 'Model name when the source stores it.'),
  timestamp: column('timestamp', 'Message time (UTC); see `timestamp_source` for how it was obtained.'),
  timestamp_source: oneOf(MESSAGE_TIME_SOURCES, 'Provenance of `timestamp`; inferred values never chain.'),
  parent_message_id: nullable('text', 'Resolved stable ID of the parent message, when known.'),
  on_active_branch: column('bool', 'True when the message is on the selected conversation branch.'),
  is_sidechain: column('bool', 'True for Store sidechain messages (kept off the active branch).'),
  is_corrupted: column(
    'bool',
    'True when the source value was NULL or undecodable (content is a placeholder).',
  ),
  input_tokens: nullable('bigint', 'Input tokens when the source stores a non-zero count.'),
  output_tokens: nullable('bigint', 'Output tokens when the source stores a non-zero count.'),
  duration_ms: nullable('bigint', 'Generation duration in milliseconds when derivable.'),
  origin: oneOf(MESSAGE_ORIGINS, 'Which representation(s) supplied the message.'),
  identity_origin: oneOf(IDENTITY_ORIGINS, 'Which identity rule produced `message_id`.'),
  extensions: nullable(
    'json',
    "Unknown or source-specific fields preserved as JSON. On the bubble opening an agentKv request: `agentKv` with `requestId`, `models`, `reasoning` and `toolCalls` (args, result, `isError`, `rawErrorMessages`, `output`). On the message opening an SDK agent turn (and on `sdk:v1` run messages): `sdk` with the run's `runId`, `turnNumber`, `status`, `model`, `requestId`, `errorCode`, `usage` (`inputTokens`, `outputTokens`, `cacheReadTokens`, `cacheWriteTokens`, `reasoningTokens`, `totalTokens`), start/finish times, `durationMs` and `eventTypes`.",
  ),
});

export const toolCallsTable = defineTable('tool_calls', 'One row per tool call, in message order.', {
  session_id: column('text', 'Owning session.'),
  message_id: column('text', 'Owning message.'),
  tool_ordinal: column('int', 'Zero-based index of the call within its message (frozen Composer order).'),
  archive_key: column('text', 'Downstream key `<message archive_key>:tc:<tool_ordinal>`.'),
  tool_id: column(
    'text',
    'Stable tool ID. Store calls (store.db, transcripts): always `tool:v1:<Store-side message ID before the merge>:<sha256 of canonical {name, params}>:<n>`, kept when the merge appends the call to a Composer message; a matched Store call keeps the Composer ID. Composer calls: `tool:v1:<message_id>:<sha256 of canonical {name, params}>:<n>`. CLI/Cloud captures: their `call_id` as stored (`source-native`), else `tool:v1`. SDK agent calls: a paired transcript call keeps its ID; an unpaired one is `tool:v1` under the message it is appended to, counting after the calls already there. `<n>` counts equal inputs within the message (docs/compatibility-matrix.md).',
  ),
  tool_id_origin: oneOf(['source-native', 'tool-v1'], 'Which rule produced `tool_id`.'),
  name: column('text', 'Tool name as stored by the source.'),
  status: column('text', 'Tool status (`completed`, `error`, `cancelled`, …).'),
  params: nullable('json', 'Parsed parameters as JSON; `{"_raw": …}` when the source string is not JSON.'),
  result: nullable('text', 'Full tool result as stored (JSON text when the source stored JSON).'),
  error: nullable('text', 'Error text when the call failed.'),
  files: column('json', 'JSON array of file paths the call touched.'),
  user_decision: nullable('text', 'User decision (`accepted`, `rejected`, `pending`) when stored.'),
  extensions: nullable(
    'json',
    "Unknown or source-specific fields preserved as JSON. `agentKv`: the agentKv args, result, `isError`, `rawErrorMessages` and `output` (e.g. exit code) of the call with the same `toolCallId`. `sdk`: the SDK call's `callId`, `name`, `status`, last non-empty `args`, `resultStatus` and `durationMs`.",
  ),
  native_call_id: nullable(
    'text',
    "The call ID the source stored, when it has one: Store `toolCallId`/`tool_call_id`/`tool_use` `id`, Composer `toolFormerData.toolCallId`, CLI `call_id`, Cloud `callId`, agentKv `toolCallId`, SDK `call_id`. Data only: it joins a call to its result, it is not the tool's identity.",
  ),
});

export const sourceInstancesTable = defineTable(
  'source_instances',
  'Every physical contributor considered for a session, with its state. Never a physical path.',
  {
    session_id: column('text', 'Owning session.'),
    instance_ordinal: column('int', 'Zero-based deterministic position among the session instances.'),
    source_role: oneOf(SOURCE_ROLES, 'Source family.'),
    representation: oneOf(REPRESENTATIONS, 'Physical representation.'),
    state: oneOf(INSTANCE_STATES, 'What happened to this contributor.'),
    occurrence_ref: column('text', 'Opaque occurrence reference (a hash), never a path.'),
    carrier: oneOf(CARRIERS, 'Where the data was read from: live default, custom path, backup, capture.'),
    workspace_path: nullable(
      'text',
      'Normalized workspace path of this contributor (docs/workspaces.md), when known.',
    ),
    reason_code: nullable('text', 'Why the contributor was omitted, failed or superseded.'),
    origin: nullable(
      'text',
      'The origin whose run read this contributor (docs/team-archive.md); NULL for rows archived before origins.',
    ),
  },
);

export const ROW_KINDS = ['message', 'tool_call'] as const;

export const rowProvenanceTable = defineTable(
  'row_provenance',
  'Where each message and tool call was read: one row per contributing source record. Never a physical path; never part of the view digest.',
  {
    session_id: column('text', 'Owning session.'),
    row_kind: oneOf(ROW_KINDS, 'Which table `row_id` belongs to.'),
    row_id: column('text', 'The message ID (`messages.message_id`) or the tool call `archive_key`.'),
    instance_ordinal: column('int', 'The contributing source instance (joins `source_instances`).'),
    locator: column(
      'text',
      'The record inside its source (docs/provenance.md): a `cursorDiskKV` key, a Store blob ID, a JSONL frame, a Markdown line; never a path.',
    ),
    frame_index: nullable(
      'bigint',
      'Zero-based physical JSONL frame (delivery frame); NULL for non-JSONL sources.',
    ),
    source_frame_index: nullable(
      'bigint',
      'Zero-based frame the content came from when it differs from `frame_index`, else NULL.',
    ),
    chosen: column('bool', "True when this source's content is what the row holds."),
  },
);

// file-edits (schema version 5): one row per proposed or applied file change.
export const USER_DECISIONS = ['accepted', 'rejected', 'pending', 'unknown'] as const;
export const DECISION_SOURCES = ['tool-call-user-decision', 'code-block-status'] as const;

export const fileEditsTable = defineTable(
  'file_edits',
  'One row per file change an assistant proposed or applied, derived from `tool_calls` and Composer code blocks; replaced with its session and never part of the view digest (docs/sql-cookbook.md#code-changes).',
  {
    session_id: column('text', 'Owning session.'),
    message_id: column('text', 'Owning message (`messages.message_id`).'),
    tool_ordinal: nullable(
      'int',
      'The tool call (`tool_calls.tool_ordinal` of the message); NULL for a Composer code block.',
    ),
    edit_ordinal: column('int', 'Zero-based position of the edit within its message.'),
    tool_name: nullable(
      'text',
      'Tool name as stored (`search_replace`, `StrReplace`, `MultiEdit`, CLI `edit`, …); NULL for a code block.',
    ),
    path: nullable(
      'text',
      'The edited file, normalized like workspace paths (docs/workspaces.md); a relative path is joined to `workspace_path`, else kept relative. NULL when the source names none.',
    ),
    workspace_path: nullable('text', "The session's normalized workspace path, when known."),
    lines_added: nullable(
      'bigint',
      'Lines added, as the source states them or counted from its diff or old/new text; NULL when not derivable.',
    ),
    lines_removed: nullable(
      'bigint',
      'Lines removed, as the source states them or counted from its diff or old/new text; NULL when not derivable.',
    ),
    diff: nullable('text', 'The diff as stored (`diffString`, `edit_file` chunks joined by newlines).'),
    old_text: nullable('text', 'The replaced text as stored (`old_string`).'),
    new_text: nullable(
      'text',
      'The new text as stored (`new_string`, written contents, `code_edit`, code block content).',
    ),
    user_decision: oneOf(USER_DECISIONS, "The user's decision; `unknown` when no source states one."),
    decision_source: oneOf(
      DECISION_SOURCES,
      'Where `user_decision` came from: the tool call `userDecision`, or the Composer code block `status`; NULL when unknown.',
      true,
    ),
    extensions: nullable(
      'json',
      'Source-specific fields: `replaceAll` (counts unknown); an edit tool of an unrecognized shape is `{"shape": "unknown", "params": <params as stored>}` with no field guessed.',
    ),
  },
);

export const diagnosticsTable = defineTable('diagnostics', 'Problems recorded as data, per run.', {
  run_id: column('text', 'Run that recorded the diagnostic.'),
  seq: column('int', 'Zero-based order within the run.'),
  code: column('text', 'Stable code, e.g. `SOURCE_LIMIT_EXCEEDED`.'),
  severity: oneOf(['info', 'warning', 'error'], 'Severity.'),
  message: column('text', 'Safe human-readable message (no content, no paths).'),
  session_id: nullable('text', 'Session concerned, when one is.'),
  source_ref: nullable('text', 'Opaque source reference, when one is.'),
  details: column('json', 'Safe structured details.'),
});

// usage (issue 26 §1): token and model facts per message or request, with their provenance.
export const USAGE_MEASUREMENTS = ['measured', 'estimated', 'derived'] as const;
export const USAGE_REPRESENTATIONS = [
  'composer-global',
  'composer-workspace',
  'composer-agentkv',
  'cli-stream',
  'cloud-capture',
  'sdk-agent-store',
  'store-metadata',
] as const;

export const usageTable = defineTable(
  'usage',
  'Token and model facts, one row per message or request the source records them for (docs/usage.md). Replaced with its session.',
  {
    session_id: column('text', 'Owning session.'),
    message_id: nullable(
      'text',
      'The message the usage belongs to; NULL when the source gives only session- or request-level usage.',
    ),
    usage_ordinal: column('int', 'Zero-based position of the row within its session.'),
    request_id: nullable(
      'text',
      'Request or run ID as stored (agentKv `requestId`, CLI `request_id`, SDK `request_id`).',
    ),
    model: nullable(
      'text',
      'Model name as stored; NULL when none, and for the `auto`/`default` sentinels (see `mode`).',
    ),
    mode: nullable(
      'text',
      '`auto` when the source stored the `auto`/`default` sentinel instead of a model; NULL otherwise.',
    ),
    input_tokens: nullable(
      'bigint',
      'Input tokens; NULL when not recorded (a zero Cursor writes for "none recorded" is NULL).',
    ),
    output_tokens: nullable('bigint', 'Output tokens; NULL when not recorded.'),
    cache_read_tokens: nullable('bigint', 'Cache-read tokens; NULL when not recorded.'),
    cache_write_tokens: nullable('bigint', 'Cache-write tokens; NULL when not recorded.'),
    reasoning_tokens: nullable('bigint', 'Reasoning tokens (a part of output); NULL when not recorded.'),
    measurement: oneOf(
      USAGE_MEASUREMENTS,
      '`measured`: counts or model as the source recorded them; `estimated`: computed from text; `derived`: attributed from session-level metadata.',
    ),
    representation: oneOf(USAGE_REPRESENTATIONS, 'Source representation the facts were read from.'),
    timestamp: column(
      'timestamp',
      'Usage time (UTC): its message time, or the last message time for request-level rows.',
    ),
    timestamp_source: oneOf(
      MESSAGE_TIME_SOURCES,
      'Provenance of `timestamp` (the `unknown` placeholder as in `messages`).',
    ),
  },
);

export const CONTENT_TABLES = [
  sessionsTable,
  messagesTable,
  toolCallsTable,
  sourceInstancesTable,
  rowProvenanceTable,
  fileEditsTable,
  usageTable,
] as const;
export const ROW_TABLES = [...CONTENT_TABLES, diagnosticsTable] as const;

export type SessionRow = RowOf<typeof sessionsTable.columns>;
export type MessageRow = RowOf<typeof messagesTable.columns>;
export type ToolCallRow = RowOf<typeof toolCallsTable.columns>;
export type SourceInstanceRow = RowOf<typeof sourceInstancesTable.columns>;
export type RowProvenanceRow = RowOf<typeof rowProvenanceTable.columns>;
export type FileEditRow = RowOf<typeof fileEditsTable.columns>;
export type DiagnosticRow = RowOf<typeof diagnosticsTable.columns>;
export type UsageRow = RowOf<typeof usageTable.columns>;
