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
    ['o.json', v0Conversation({ shape: 'empty' }), 'cloud-v0'],
    ['p.json', v0Conversation({ shape: 'long-first-text' }), 'cloud-v0'],
    ['q.json', v0Conversation({ shape: 'long-agent-summary' }), 'cloud-v0'],
    ['r.json', `{"messages":[{"role":"user","content":"${'x'.repeat(20_000)}"}]}\n`, null],
    ['s.json', `{"agent":{"name":"${'x'.repeat(20_000)}"}}\n`, null],
    ['t.json', '{"messages":[{"id":"m1","type":"note","text":"x"}]}\n', null],
    // Blank lines are no records: a run longer than the window still leaves the first record to decide.
    ['u.txt', `${' \r\n'.repeat(100_000)}${completeBasic()}`, 'cli-stream'],
    ['v.jsonl', `\uFEFF${'\n'.repeat(40_000)}${finishedCapture()}`, 'cloud-capture'],
    ['w.jsonl', '\n \t\r\n'.repeat(10_000), null],
  ];
  for (const [name, content, expected] of cases)
    it(`${name} is ${expected ?? 'undetectable'}`, () => {
      expect(sniffSurface(writeCapture(dir, name, content))).toBe(expected);
    });
});

describe('sniffSurface refuses UTF-16 ("Invalid or mixed encoding is not guessed, transcoded, or replacement-decoded")', () => {
  const dir = tempDir();
  const utf16le = (text: string, bom: boolean) =>
    Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);
  const utf16be = (text: string) => utf16le(text, false).swap16();
  const cases: [string, Buffer][] = [
    ['le-bom.ndjson', utf16le(completeBasic(), true)],
    ['le.ndjson', utf16le(completeBasic(), false)],
    ['be-bom.md', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(exportChat())])],
    ['be.md', utf16be(exportChat())],
  ];
  for (const [name, bytes] of cases)
    it(`${name}: SOURCE_ENCODING_INVALID (utf16), not "undetectable"`, () => {
      expect(() => sniffSurface(writeCapture(dir, name, bytes))).toThrow(
        expect.objectContaining({
          code: 'SOURCE_ENCODING_INVALID',
          details: expect.objectContaining({ problem: 'utf16' }),
        }),
      );
    });

  it('a UTF-8 BOM is still accepted', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(completeBasic())]);
    expect(sniffSurface(writeCapture(dir, 'utf8-bom.ndjson', bytes))).toBe('cli-stream');
  });
});
