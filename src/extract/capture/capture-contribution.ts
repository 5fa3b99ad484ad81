/** What hydrating one capture occurrence yields, per surface (consumed by `src/transform/capture`). */
import type { Contribution } from '../source-adapter.js';
import type { MarkdownDocument } from './markdown/markdown-document.js';

export type JsonObject = Record<string, unknown>;

export interface CliRecord {
  /** 1-based physical line number in the capture (never renumbered). */
  line: number;
  event: JsonObject;
}

export interface CliCapture {
  sessionId: string;
  records: CliRecord[];
  /** Terminated lines that were not a JSON object: they block any completion claim. */
  malformedLines: number[];
  /** A final unterminated, unparsable line: a buffered tail, not corruption. */
  partialTail: boolean;
}

export interface CloudRecord {
  line: number;
  kind: string;
  agentId: string | null;
  runId: string | null;
  connection: number | null;
  resumedFrom: string | null;
  endpoint: string | null;
  event: string | null;
  id: string | null;
  data: unknown;
  body: unknown;
  receivedAt: string | null;
  /** Fields of the capture record this build does not know, kept verbatim. */
  unknownFields: JsonObject | null;
}

export interface CloudAgentCapture {
  /** The agent ID, or for a raw SSE file (which names no agent) the run ID it streamed. */
  sessionId: string;
  agentIdKnown: boolean;
  format: 'capture-jsonl' | 'raw-sse';
  records: CloudRecord[];
  malformedLines: number[];
  partialTail: boolean;
  /** Records naming no agent in a file holding several agents (not attributed by guess). */
  unattributedRecords: number;
}

/**
 * A legacy Cloud Agents v0 conversation body (`GET /v0/agents/{id}/conversation`), bare or saved
 * next to the agent's metadata as `{agent, conversation}`. Kept verbatim; the transform interprets it.
 */
export interface CloudV0Conversation {
  /** The agent ID, byte-exact: `conversation.id`, else the wrapping agent's `id`. */
  sessionId: string;
  form: 'bare' | 'wrapped';
  /** The wrapping agent metadata, verbatim; null for a bare body. */
  agent: JsonObject | null;
  /** `conversation.messages` verbatim. */
  messages: unknown[];
  /** Other fields of the document (besides `id`/`messages`, or `agent`/`conversation`), verbatim. */
  extraFields: JsonObject | null;
}

export type CliStreamContribution = Contribution<'cli-stream', CliCapture>;
export type CloudCaptureContribution = Contribution<'cloud-capture', CloudAgentCapture>;
export type CloudV0Contribution = Contribution<'cloud-v0-conversation', CloudV0Conversation>;
export type MarkdownExportContribution = Contribution<'markdown-export', MarkdownDocument>;
