import { describe, expect, it } from 'vitest';
import { bubbleToMessage } from '../../../src/transform/composer/bubble-message.js';

const failedTool = (result: string) =>
  bubbleToMessage(
    {
      rowid: 1,
      keyBubbleId: 'b1',
      corruption: null,
      value: {
        type: 2,
        bubbleId: 'b1',
        text: '',
        toolFormerData: { tool: 5, name: 'run_terminal_cmd', status: 'error', params: '{}', result },
      },
    },
    0,
    [],
  ).toolCalls[0]!;

describe('Composer tool errors', () => {
  it('take the error text from the JSON result', () => {
    expect(failedTool(JSON.stringify({ error: 'exit 1: not found' })).error).toBe('exit 1: not found');
  });

  it('keep the raw result when that text would be an unpaired surrogate (it has no UTF-8 form)', () => {
    const result = '{"error":"cut \\ud83d"}';
    expect(failedTool(result).error).toBe(result);
  });
});
