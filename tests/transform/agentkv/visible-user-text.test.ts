import { describe, expect, it } from 'vitest';
import { visibleUserText } from '../../../src/transform/agentkv/visible-user-text.js';

describe('agentKv user text without injected context (cursor-formats §1.3)', () => {
  it('keeps the <user_query> body only', () => {
    const text =
      '<user_info>OS: linux</user_info>\n<rules>be brief</rules>\n<user_query>\nRename foo\n</user_query>';
    expect(visibleUserText(text)).toBe('Rename foo');
  });

  it('without a <user_query>, drops the known context blocks and keeps the rest', () => {
    expect(visibleUserText('<git_status>M a.ts</git_status>\nFix the test')).toBe('Fix the test');
  });
});
