import { describe, expect, it } from 'vitest';
import { composerSubagentInfo, storeSubagentInfo } from '../../../src/extract/subagent/subagent-evidence.js';

describe('subagent evidence shapes', () => {
  it('reads the composerData and header forms of subagentInfo', () => {
    expect(
      composerSubagentInfo('composer-data', {
        parentComposerId: 'p',
        rootParentConversationId: 'r',
        subagentTypeName: 'explore',
      }),
    ).toEqual({
      source: 'composer-data',
      parentSessionId: 'p',
      rootSessionId: 'r',
      spawnToolCallId: null,
      subagentType: 'explore',
    });
    expect(
      composerSubagentInfo('composer-header-json', { parentComposerId: 'p', toolCallId: 't' }, 'shell'),
    ).toMatchObject({
      parentSessionId: 'p',
      spawnToolCallId: 't',
      subagentType: 'shell',
    });
  });

  it('reads the store.db meta form', () => {
    expect(
      storeSubagentInfo({ parentAgentId: 'p', rootParentAgentId: 'r', toolCallId: 't', typeName: 'explore' }),
    ).toEqual({
      source: 'store-meta',
      parentSessionId: 'p',
      rootSessionId: 'r',
      spawnToolCallId: 't',
      subagentType: 'explore',
    });
  });

  it('null, other shapes, empty and non-string values say nothing', () => {
    for (const value of [null, undefined, 'p', ['p'], {}, { parentComposerId: '' }, { parentComposerId: 7 }])
      expect(composerSubagentInfo('composer-data', value)).toBeNull();
    expect(storeSubagentInfo({ parentComposerId: 'p' })).toBeNull();
  });
});
