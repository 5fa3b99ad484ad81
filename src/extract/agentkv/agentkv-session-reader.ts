/**
 * Reads the agentKv blobs of one Composer session: those its `conversationState` names (prompt
 * messages, turns and their user/step blobs) and, for request IDs its bubbles carry that no
 * state-linked blob opens, the user blobs of the request-id index. Exact-key reads under the limits.
 */
import type Database from 'better-sqlite3';
import { SourceLimitExceeded } from '../limits/limit-exceeded.js';
import type { ReadLimits } from '../limits/read-limits.js';
import type { ReadCounters } from '../read-counters.js';
import { HydrationBudget, KeysetPager } from '../sqlite/keyset-pager.js';
import { SourceEncodingInvalid } from '../text/strict-utf8.js';
import { AGENTKV_BLOB_PREFIX, decodeBlob } from './agentkv-blob.js';
import type { AgentKvBlobBytes, AgentKvSessionBytes, BlobLink } from './agentkv-contribution.js';
import type { AgentKvIndex } from './agentkv-index.js';
import { parseConversationState, parseTurn } from './conversation-state.js';
import { stringFieldValues } from './json-string-scan.js';
import { userRequestId } from './message-request-id.js';

/** Longer values are not a conversation state or request ID worth a lookup. */
const MAX_STATE_CHARS = 16 * 1024 * 1024;
const MAX_REQUEST_ID_CHARS = 128;

export interface SessionRows {
  doc: Uint8Array | null | 'changed' | undefined;
  bubbles: readonly { bytes: Uint8Array | null | 'changed' }[];
}

export function readAgentKvSession(
  db: Database.Database,
  rows: SessionRows,
  index: AgentKvIndex,
  limits: ReadLimits,
  counters: ReadCounters,
  scope: { sessionId: string; sourceRef: string },
): AgentKvSessionBytes | null {
  const docBytes = rows.doc instanceof Uint8Array ? rows.doc : null;
  const state =
    docBytes === null ? null : (stringFieldValues(docBytes, 'conversationState', MAX_STATE_CHARS)[0] ?? null);
  const requestIds = new Set<string>();
  for (const { bytes } of rows.bubbles) {
    if (bytes instanceof Uint8Array)
      for (const id of stringFieldValues(bytes, 'requestId', MAX_REQUEST_ID_CHARS)) requestIds.add(id);
  }
  if (state === null && requestIds.size === 0) return null;
  const read: AgentKvSessionBytes = {
    state,
    stateUnreadable: false,
    turns: 0,
    blobs: [],
    missing: 0,
    readFailure: null,
  };
  const pager = new KeysetPager(db, 'cursorDiskKV', limits, counters);
  const budget = new HydrationBudget(limits);
  const fetch = (
    blobId: string,
    link: BlobLink,
    promptIndex: number | null,
    turnPart = false,
  ): AgentKvBlobBytes | null => {
    const meta = pager.exact(`${AGENTKV_BLOB_PREFIX}${blobId}`, budget);
    if (meta === null) {
      read.missing++;
      return null;
    }
    const blob: AgentKvBlobBytes = { blobId, link, promptIndex, turnPart, bytes: pager.fetch(meta, budget) };
    read.blobs.push(blob);
    return blob;
  };
  try {
    if (state !== null) {
      const root = parseConversationState(state);
      if (root === null) read.stateUnreadable = true;
      else {
        root.promptIds.forEach((id, i) => {
          const blob = fetch(id, 'conversation-state', i);
          if (blob?.bytes instanceof Uint8Array) {
            const opened = userRequestId(decodeBlob(id, blob.bytes).json);
            if (opened !== null) requestIds.delete(opened);
          }
        });
        for (const turnId of root.turnIds) {
          const turn = fetch(turnId, 'conversation-state', null);
          read.turns++;
          if (!(turn?.bytes instanceof Uint8Array)) continue;
          const parsed = parseTurn(decodeBlob(turnId, turn.bytes).bytes);
          if (parsed === null) continue;
          for (const id of [...(parsed.userId === null ? [] : [parsed.userId]), ...parsed.stepIds])
            fetch(id, 'conversation-state', null, true);
        }
      }
    }
    if (requestIds.size > 0) {
      index.ensureBuilt();
      for (const requestId of requestIds)
        for (const id of index.byRequest.get(requestId) ?? []) fetch(id, 'request-id', null);
    }
  } catch (error) {
    if (!(error instanceof SourceLimitExceeded || error instanceof SourceEncodingInvalid)) throw error;
    read.readFailure = error.asDiagnostic(scope);
  }
  index.markLinked(read.blobs.map((blob) => blob.blobId));
  return read;
}
