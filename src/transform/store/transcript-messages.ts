/**
 * Agent transcript records → view messages and state (cursor-formats §2.6). `turn_ended` frames are
 * not messages; errors, unsupported records, malformed frames, a partial tail or a cut read degrade
 * the state. Identity `store:v1:transcript:<sha256>:<n>` in line order.
 */

import type { SessionOccurrence } from '../../extract/source-adapter.js';
import type { StoreTranscriptData } from '../../extract/store/store-contribution.js';
import { frameSource, rowSource } from '../row-source.js';
import type { RowSource, ViewMessage } from '../session-view.js';
import { asObject, asString, readBlocks } from './store-blocks.js';
import { StoreIdentityAllocator, transcriptFingerprint } from './store-identity.js';
import { storeMessage } from './store-message.js';
import { buildToolCalls } from './store-tool-calls.js';

export type TranscriptState =
  | 'parsed'
  | 'partial'
  | 'empty'
  | 'error-only'
  | 'unsupported'
  | 'unreadable'
  | 'missing';

export interface TranscriptMessagesResult {
  messages: ViewMessage[];
  state: TranscriptState;
  counts: { errorLines: number; unsupportedLines: number; malformedLines: number; lifecycleFrames: number };
}

function relationships(record: Record<string, unknown>): Record<string, unknown> {
  const message = asObject(record.message) ?? {};
  const parent =
    asString(record.parentMessageId) ??
    asString(record.parentId) ??
    asString(message.parentMessageId) ??
    asString(message.parentId);
  const sidechain = record.isSidechain ?? message.isSidechain;
  return {
    ...(parent === null ? {} : { parentMessageId: parent }),
    ...(typeof sidechain === 'boolean' ? { isSidechain: sidechain } : {}),
  };
}

function stateOf(
  data: StoreTranscriptData,
  messages: number,
  counts: TranscriptMessagesResult['counts'],
): TranscriptState {
  if (data.readState !== 'read') return data.readState;
  const bad = counts.errorLines + counts.unsupportedLines + counts.malformedLines;
  if (messages > 0) return bad > 0 || data.partialTail || data.cutShort ? 'partial' : 'parsed';
  if (data.cutShort) return 'unreadable';
  if (counts.errorLines > 0 && counts.unsupportedLines + counts.malformedLines === 0) return 'error-only';
  if (bad > 0 || data.partialTail) return 'unsupported';
  return 'empty';
}

/** A JSONL record by its zero-based frame; a plain-text transcript's by its zero-based line. */
function recordSource(data: StoreTranscriptData, occurrence: SessionOccurrence, line: number): RowSource {
  return data.format === 'jsonl'
    ? frameSource(occurrence, 'store-transcript', line - 1)
    : rowSource(occurrence, `store-transcript:line:${line - 1}`);
}

export function transcriptMessages(
  data: StoreTranscriptData,
  occurrence: SessionOccurrence,
): TranscriptMessagesResult {
  const counts = {
    errorLines: 0,
    unsupportedLines: 0,
    malformedLines: data.malformedLines,
    lifecycleFrames: 0,
  };
  const allocator = new StoreIdentityAllocator('transcript');
  const messages: ViewMessage[] = [];
  let previousActive: string | null = null;
  let previous: string | null = null;
  /** Messages before this index belong to turns a terminal lifecycle frame closed. */
  let closed = 0;
  for (const { line, record } of data.records) {
    if (record.type === 'turn_ended') {
      counts.lifecycleFrames += 1;
      closed = messages.length;
      continue;
    }
    if (record.type === 'error') {
      counts.errorLines += 1;
      continue;
    }
    const role = record.role;
    if (role === 'system') continue;
    if (role !== 'user' && role !== 'assistant') {
      counts.unsupportedLines += 1;
      continue;
    }
    const blocks = readBlocks(asObject(record.message)?.content ?? record.content);
    if (blocks.unsupported.length > 0 || blocks.results.length > 0) counts.unsupportedLines += 1;
    const calls = blocks.calls.map((call) => ({ ...call, params: asObject(call.params) ?? undefined }));
    if (blocks.text === '' && calls.length === 0) {
      if (blocks.unsupported.length === 0 && blocks.results.length === 0) counts.unsupportedLines += 1;
      continue;
    }
    const sourceRelationships = relationships(record);
    const toolActivity = calls.map((c) => ({
      name: c.name,
      ...(c.params === undefined ? {} : { params: c.params }),
    }));
    const messageId = allocator.next(
      transcriptFingerprint({ role, content: blocks.text, toolActivity, sourceRelationships }),
    );
    const isSidechain = sourceRelationships.isSidechain === true;
    messages.push(
      storeMessage({
        messageId,
        identityOrigin: 'store-transcript-v1',
        role,
        content: blocks.text,
        thinking: blocks.thinking,
        parentMessageId: isSidechain ? previous : previousActive,
        onActiveBranch: !isSidechain,
        isSidechain,
        // Transcripts hold no results to join: the `tool_use` ID is kept as data only.
        toolCalls: buildToolCalls(calls, messageId, new Map(), new Set()),
        sources: [recordSource(data, occurrence, line)],
      }),
    );
    previous = messageId;
    if (!isSidechain) previousActive = messageId;
  }
  // Content is available before its turn is complete: kept, and marked open until the frame arrives.
  if (data.format === 'jsonl')
    for (let i = closed; i < messages.length; i++)
      messages[i] = { ...messages[i]!, extensions: { turn: 'open' } };
  return { messages, state: stateOf(data, messages.length, counts), counts };
}
