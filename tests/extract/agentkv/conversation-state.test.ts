import { describe, expect, it } from 'vitest';
import { encodeProto } from '../../../fixtures/agentkv/protobuf-writer.js';
import { parseConversationState, parseTurn } from '../../../src/extract/agentkv/conversation-state.js';

const id = (c: string) => c.repeat(64);
const raw = (hex: string) => Buffer.from(hex, 'hex');

describe('composerData.conversationState (cursor-formats §1.4a)', () => {
  it('reads prompt blob IDs (field 1) and turn blob IDs (field 8); other fields are left alone', () => {
    const root = encodeProto([
      [1, raw(id('a'))],
      [1, raw(id('b'))],
      [
        5,
        [
          [1, 1200],
          [2, 200000],
        ],
      ],
      [8, raw(id('c'))],
      [9, 'file:///w/app'],
    ]);
    expect(parseConversationState(`~${root.toString('base64')}`)).toEqual({
      promptIds: [id('a'), id('b')],
      turnIds: [id('c')],
    });
  });

  it('a state without the `~` prefix, with non-base64 text or a broken protobuf is unreadable', () => {
    const root = encodeProto([[1, raw(id('a'))]]);
    expect(parseConversationState(root.toString('base64'))).toBeNull();
    expect(parseConversationState('~not base64!')).toBeNull();
    expect(parseConversationState(`~${Buffer.from([0x0a, 0x40, 0x01]).toString('base64')}`)).toBeNull();
  });

  it('an agent turn names its user-message blob (field 1) and its step blobs (field 2)', () => {
    const turn = encodeProto([
      [
        1,
        [
          [1, raw(id('d'))],
          [2, raw(id('e'))],
          [2, raw(id('f'))],
        ],
      ],
    ]);
    expect(parseTurn(turn)).toEqual({ userId: id('d'), stepIds: [id('e'), id('f')] });
    expect(parseTurn(encodeProto([[2, 'shell turn']]))).toEqual({ userId: null, stepIds: [] });
  });
});
