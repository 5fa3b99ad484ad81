import { describe, expect, it } from 'vitest';
import type { StoreTranscriptData, TranscriptRecord } from '../../../src/extract/store/store-contribution.js';
import { transcriptMessages } from '../../../src/transform/store/transcript-messages.js';
import { TRANSCRIPT_ONLY_FACTS } from '../../helpers/store-facts.js';

const facts = TRANSCRIPT_ONLY_FACTS;
const OCCURRENCE = {
  sessionId: 's',
  sourceKey: 'k',
  representation: 'store-transcript' as const,
  carrier: 'live' as const,
  occurrenceRef: 'ref',
  workspacePath: null,
  handle: null,
};
const messagesOf = (d: StoreTranscriptData) => transcriptMessages(d, OCCURRENCE);

function data(
  records: Record<string, unknown>[],
  extra: Partial<StoreTranscriptData> = {},
): StoreTranscriptData {
  const numbered: TranscriptRecord[] = records.map((record, i) => ({ line: i + 1, record }));
  return {
    format: 'jsonl',
    readState: 'read',
    records: numbered,
    malformedLines: 0,
    partialTail: false,
    cutShort: false,
    facts,
    ...extra,
  };
}

const user = { role: 'user', message: { content: [{ type: 'text', text: 'hi' }] } };
const assistant = { role: 'assistant', message: { content: 'hello' } };

describe('transcript states', () => {
  it('lifecycle frames (turn_ended) are not messages and keep the transcript parsed', () => {
    const result = messagesOf(data([user, { type: 'turn_ended', status: 'success' }, assistant]));
    expect(result.state).toBe('parsed');
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(result.counts.lifecycleFrames).toBe(1);
  });

  it('parsed, partial, empty, error-only, unsupported, unreadable and missing', () => {
    expect(messagesOf(data([user])).state).toBe('parsed');
    expect(messagesOf(data([user, { type: 'error', error: 'x' }])).state).toBe('partial');
    expect(messagesOf(data([user], { malformedLines: 1 })).state).toBe('partial');
    expect(messagesOf(data([user], { partialTail: true })).state).toBe('partial');
    expect(messagesOf(data([user], { cutShort: true })).state).toBe('partial');
    expect(messagesOf(data([])).state).toBe('empty');
    expect(messagesOf(data([{ type: 'error', error: 'x' }])).state).toBe('error-only');
    expect(messagesOf(data([{ role: 'tool', content: 'x' }])).state).toBe('unsupported');
    expect(
      messagesOf(data([{ role: 'user', message: { content: [{ type: 'text', text: '' }] } }])).state,
    ).toBe('unsupported');
    expect(messagesOf(data([], { cutShort: true })).state).toBe('unreadable');
    expect(messagesOf(data([], { readState: 'unreadable' })).state).toBe('unreadable');
  });

  it('an unsupported block keeps the message but makes the transcript partial', () => {
    const image = {
      role: 'user',
      message: {
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', data: 'AAAA' },
        ],
      },
    };
    const result = messagesOf(data([image]));
    expect(result.messages).toHaveLength(1);
    expect(result.state).toBe('partial');
  });

  it('sidechain messages stay off the active branch; identity includes relationships', () => {
    const side = { ...assistant, isSidechain: true };
    const result = messagesOf(data([user, side, assistant]));
    expect(result.messages.map((m) => m.onActiveBranch)).toEqual([true, false, true]);
    expect(result.messages[2]!.parentMessageId).toBe(result.messages[0]!.messageId);
    expect(result.messages[1]!.messageId).not.toBe(result.messages[2]!.messageId);
  });
});
