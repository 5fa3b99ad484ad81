-- Generated from schemas/tables.ts by `npm run schemas:generate`. Do not edit.

CREATE TABLE IF NOT EXISTS sessions (
  session_id VARCHAR NOT NULL,
  archive_key VARCHAR NOT NULL,
  title VARCHAR,
  workspace_path VARCHAR,
  resolved_source VARCHAR NOT NULL,
  preferred_source VARCHAR,
  fidelity VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  resolution_state VARCHAR NOT NULL,
  reason_codes JSON NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  created_at_source VARCHAR NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  updated_at_source VARCHAR NOT NULL,
  message_count INTEGER NOT NULL,
  tool_call_count INTEGER NOT NULL,
  transcript_state VARCHAR,
  context_tokens_used BIGINT,
  context_token_limit BIGINT,
  total_input_tokens BIGINT,
  total_output_tokens BIGINT,
  parent_session_id VARCHAR,
  view_digest VARCHAR NOT NULL,
  message_identity_version INTEGER NOT NULL,
  extensions JSON,
  root_session_id VARCHAR,
  spawn_tool_call_id VARCHAR,
  subagent_type VARCHAR,
  origin VARCHAR
);

CREATE TABLE IF NOT EXISTS messages (
  session_id VARCHAR NOT NULL,
  message_id VARCHAR NOT NULL,
  archive_key VARCHAR NOT NULL,
  ordinal INTEGER NOT NULL,
  role VARCHAR NOT NULL,
  content VARCHAR NOT NULL,
  thinking VARCHAR,
  model VARCHAR,
  timestamp TIMESTAMPTZ NOT NULL,
  timestamp_source VARCHAR NOT NULL,
  parent_message_id VARCHAR,
  on_active_branch BOOLEAN NOT NULL,
  is_sidechain BOOLEAN NOT NULL,
  is_corrupted BOOLEAN NOT NULL,
  input_tokens BIGINT,
  output_tokens BIGINT,
  duration_ms BIGINT,
  origin VARCHAR NOT NULL,
  identity_origin VARCHAR NOT NULL,
  extensions JSON
);

CREATE TABLE IF NOT EXISTS tool_calls (
  session_id VARCHAR NOT NULL,
  message_id VARCHAR NOT NULL,
  tool_ordinal INTEGER NOT NULL,
  archive_key VARCHAR NOT NULL,
  tool_id VARCHAR NOT NULL,
  tool_id_origin VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  status VARCHAR NOT NULL,
  params JSON,
  result VARCHAR,
  error VARCHAR,
  files JSON NOT NULL,
  user_decision VARCHAR,
  extensions JSON,
  native_call_id VARCHAR
);

CREATE TABLE IF NOT EXISTS source_instances (
  session_id VARCHAR NOT NULL,
  instance_ordinal INTEGER NOT NULL,
  source_role VARCHAR NOT NULL,
  representation VARCHAR NOT NULL,
  state VARCHAR NOT NULL,
  occurrence_ref VARCHAR NOT NULL,
  carrier VARCHAR NOT NULL,
  workspace_path VARCHAR,
  reason_code VARCHAR,
  origin VARCHAR
);

CREATE TABLE IF NOT EXISTS row_provenance (
  session_id VARCHAR NOT NULL,
  row_kind VARCHAR NOT NULL,
  row_id VARCHAR NOT NULL,
  instance_ordinal INTEGER NOT NULL,
  locator VARCHAR NOT NULL,
  frame_index BIGINT,
  source_frame_index BIGINT,
  chosen BOOLEAN NOT NULL
);

CREATE TABLE IF NOT EXISTS file_edits (
  session_id VARCHAR NOT NULL,
  message_id VARCHAR NOT NULL,
  tool_ordinal INTEGER,
  edit_ordinal INTEGER NOT NULL,
  tool_name VARCHAR,
  path VARCHAR,
  workspace_path VARCHAR,
  lines_added BIGINT,
  lines_removed BIGINT,
  diff VARCHAR,
  old_text VARCHAR,
  new_text VARCHAR,
  user_decision VARCHAR NOT NULL,
  decision_source VARCHAR,
  extensions JSON
);

CREATE TABLE IF NOT EXISTS usage (
  session_id VARCHAR NOT NULL,
  message_id VARCHAR,
  usage_ordinal INTEGER NOT NULL,
  request_id VARCHAR,
  model VARCHAR,
  mode VARCHAR,
  input_tokens BIGINT,
  output_tokens BIGINT,
  cache_read_tokens BIGINT,
  cache_write_tokens BIGINT,
  reasoning_tokens BIGINT,
  measurement VARCHAR NOT NULL,
  representation VARCHAR NOT NULL,
  timestamp TIMESTAMPTZ NOT NULL,
  timestamp_source VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS diagnostics (
  run_id VARCHAR NOT NULL,
  seq INTEGER NOT NULL,
  code VARCHAR NOT NULL,
  severity VARCHAR NOT NULL,
  message VARCHAR NOT NULL,
  session_id VARCHAR,
  source_ref VARCHAR,
  details JSON NOT NULL
);

CREATE TABLE IF NOT EXISTS etl_runs (
  run_id VARCHAR NOT NULL,
  started_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ,
  status VARCHAR NOT NULL,
  mode VARCHAR NOT NULL,
  options_digest VARCHAR NOT NULL,
  sources_seen INTEGER NOT NULL,
  sources_skipped_unchanged INTEGER NOT NULL,
  sessions_inserted INTEGER NOT NULL,
  sessions_replaced INTEGER NOT NULL,
  sessions_unchanged INTEGER NOT NULL,
  sessions_kept_complete INTEGER NOT NULL,
  sessions_ambiguous INTEGER NOT NULL,
  diagnostics INTEGER NOT NULL,
  sessions_marked_absent INTEGER NOT NULL,
  payload_bytes_read BIGINT NOT NULL,
  owner_pid INTEGER,
  origin VARCHAR
);

CREATE TABLE IF NOT EXISTS etl_sources (
  source_key VARCHAR NOT NULL,
  kind VARCHAR NOT NULL,
  roots_digest VARCHAR NOT NULL,
  options_digest VARCHAR NOT NULL,
  dev BIGINT NOT NULL,
  ino BIGINT NOT NULL,
  size BIGINT NOT NULL,
  mtime_ms BIGINT NOT NULL,
  sidecars JSON,
  content_hash VARCHAR,
  fingerprint_digest VARCHAR NOT NULL,
  checkpoint JSON,
  present BOOLEAN NOT NULL,
  first_seen_run VARCHAR NOT NULL,
  last_seen_run VARCHAR NOT NULL,
  last_changed_run VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS etl_session_sources (
  session_id VARCHAR NOT NULL,
  source_key VARCHAR NOT NULL,
  occurrence_ref VARCHAR NOT NULL,
  session_fingerprint VARCHAR,
  content_fingerprint VARCHAR,
  last_seen_run VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS etl_session_state (
  session_id VARCHAR NOT NULL,
  present_in_source BOOLEAN NOT NULL,
  first_seen_run VARCHAR NOT NULL,
  last_seen_run VARCHAR NOT NULL,
  last_changed_run VARCHAR,
  absent_since_run VARCHAR
);

CREATE TABLE IF NOT EXISTS etl_session_changes (
  change_seq BIGINT NOT NULL,
  run_id VARCHAR NOT NULL,
  session_id VARCHAR NOT NULL,
  change VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS etl_consumers (
  consumer VARCHAR NOT NULL,
  acked_seq BIGINT NOT NULL,
  acked_run VARCHAR,
  acked_at TIMESTAMPTZ NOT NULL,
  exports INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS model_prices (
  model VARCHAR NOT NULL,
  valid_from TIMESTAMPTZ NOT NULL,
  currency VARCHAR NOT NULL,
  input_per_million DOUBLE,
  output_per_million DOUBLE,
  cache_read_per_million DOUBLE,
  cache_write_per_million DOUBLE
);
