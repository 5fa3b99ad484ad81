import { describe, expect, it } from 'vitest';
import { specStoryThinking, specStoryV2 } from '../../../fixtures/capture/markdown-captures.js';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { parseSpecStory } from '../../../src/extract/capture/markdown/specstory-parser.js';
import { canonicalHash } from '../../../src/shared/json/canonical-json.js';
import { onlySession, readCaptures } from '../../helpers/capture-sessions.js';
import { tempDir } from '../../helpers/run-cli.js';

describe('Markdown export view', () => {
  it('SpecStory thinking lands in the `thinking` column; the message ID still hashes the turn as written', async () => {
    const s = onlySession(await readCaptures([writeCapture(tempDir(), 'v2.md', specStoryV2())]));
    const agent = s.messages[1]!;
    expect(agent.thinking).toBe('The entries should be sorted.\n\nNewest first is the convention here.');
    expect(agent.content).not.toContain('<think>');
    const written = parseSpecStory(specStoryV2().split('\n')).turns[1]!.writtenText;
    expect(agent.message_id).toBe(
      `capture:v1:${canonicalHash({ surface: 'specstory', role: 'assistant', content: written })}:1`,
    );
    expect(s.messages[0]!.thinking).toBeNull();
  });

  it('every closed thinking block of a turn is its thinking; an unclosed one stays text with CAPTURE_THINKING_UNTERMINATED', async () => {
    const read = await readCaptures([writeCapture(tempDir(), 'thinking.md', specStoryThinking())]);
    const s = onlySession(read);
    expect(s.messages.map((m) => [m.role, m.content, m.thinking])).toEqual([
      ['user', 'rename the helper', null],
      [
        'assistant',
        'Renaming it now. Done.',
        'Find the helper first.\n\nUpdate the imports too.\n\nNothing else uses it.',
      ],
      ['user', 'thanks', null],
      ['assistant', '<think>the export was cut here\nYou are welcome.', null],
    ]);
    expect(s.diagnostics).toEqual([
      expect.objectContaining({
        code: 'CAPTURE_THINKING_UNTERMINATED',
        severity: 'info',
        details: { blocks: 1, messages: 1 },
      }),
    ]);
  });
});
