import { describe, expect, it } from 'vitest';
import { completeBasic, jsonOutput } from '../../../fixtures/capture/cli-captures.js';
import { finishedCapture, finishedSse, v0Conversation } from '../../../fixtures/capture/cloud-captures.js';
import {
  exportChat,
  specStoryV1,
  specStoryV1Oldest,
  specStoryV2,
} from '../../../fixtures/capture/markdown-captures.js';
import { writeCapture } from '../../../fixtures/capture/write-capture.js';
import { sniffSurface } from '../../../src/extract/capture/sniff-surface.js';
import { tempDir } from '../../helpers/run-cli.js';

describe('sniffSurface (content decides, the extension is only a hint)', () => {
  const dir = tempDir();
  const cases: [string, string, string | null][] = [
    ['a.txt', completeBasic(), 'cli-stream'],
    ['b.md', jsonOutput(), 'cli-stream'],
    ['c.ndjson', finishedCapture(), 'cloud-capture'],
    ['d.jsonl', finishedSse(), 'cloud-sse'],
    ['e.txt', exportChat(), 'export-chat'],
    ['f.md', specStoryV1Oldest(), 'specstory'],
    ['g.md', specStoryV1(), 'specstory'],
    ['h', specStoryV2(), 'specstory'],
    ['i.ndjson', 'hello world\n', null],
    ['j.md', '# Just a heading\n\nSome notes.\n', null],
    ['k.json', '{"name":"package"}\n', null],
    ['l.json', v0Conversation(), 'cloud-v0'],
    ['m.txt', v0Conversation({ wrapped: true }), 'cloud-v0'],
    ['n.json', '{"messages":[{"type":"note"}]}\n', null],
  ];
  for (const [name, content, expected] of cases)
    it(`${name} is ${expected ?? 'undetectable'}`, () => {
      expect(sniffSurface(writeCapture(dir, name, content))).toBe(expected);
    });
});
