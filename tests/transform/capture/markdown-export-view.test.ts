import { describe, expect, it } from 'vitest';
import { specStoryV2 } from '../../../fixtures/capture/markdown-captures.js';
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
});
