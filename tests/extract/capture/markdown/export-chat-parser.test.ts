import { describe, expect, it } from 'vitest';
import { exportChat, exportChat2x } from '../../../../fixtures/capture/markdown-captures.js';
import { parseExportChat } from '../../../../src/extract/capture/markdown/export-chat-parser.js';

const parse = (text: string) => parseExportChat(text.split('\n'));

describe('Cursor Export Chat parser', () => {
  it('reads title, app version and the locale date as an opaque string', () => {
    const doc = parse(exportChat({ date: '2025. 6. 27. at 14시 17분 35초 GMT+9' }));
    expect(doc.title).toBe('Rename the helper module');
    expect(doc.appVersion).toBe('2.5.10');
    expect(doc.opaqueDates).toEqual(['2025. 6. 27. at 14시 17분 35초 GMT+9']);
    expect(doc.declaredAtMs).toBeNull();
  });

  it('`---` inside fenced code and `---` not followed by a role line are not turn boundaries', () => {
    const doc = parse(exportChat());
    expect(doc.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const last = doc.turns[3]!.text;
    expect(last).toContain('```markdown\nabove\n\n---\n\n**User**\n\nstill code\n```');
    expect(last.endsWith('---\n\nA real rule above, same turn.')).toBe(true);
  });

  it('never invents times, models or tools, and counts elided tool activity', () => {
    const doc = parse(exportChat());
    expect(doc.turns.every((t) => t.stampedAtMs === null && t.model === null && t.tools.length === 0)).toBe(
      true,
    );
    expect(doc.turns[1]!.elisions).toBe(1);
    expect(doc.turns[3]!.elisions).toBe(0);
  });

  it('identity is content-derived: a later, longer export of the same chat keeps the session ID', () => {
    const short = parse(exportChat({ turns: 2 }));
    const long = parse(exportChat({ turns: 6, date: '19/10/2025 at 12:29:42 GMT+8' }));
    expect(long.sessionId).toBe(short.sessionId);
    expect(short.sessionId).toMatch(/^markdown:v1:[0-9a-f]{64}$/);
    expect(parse(exportChat().replace('Rename the helper', 'Another')).sessionId).not.toBe(short.sessionId);
  });

  it('2.x export: consecutive user turns, a 3-blank elision, headings and `lang:path` fences stay text', () => {
    const doc = parse(exportChat2x());
    expect(doc).toMatchObject({
      title: '변경 로그 정리',
      appVersion: '2.6.21',
      opaqueDates: ['2025. 6. 27. at 14시 17분 35초 GMT+9'],
    });
    expect(doc.turns.map((t) => [t.role, t.elisions])).toEqual([
      ['user', 0],
      ['user', 0],
      ['assistant', 1],
    ]);
    expect(doc.turns[2]!.text).toContain('## Result\n\n```md:CHANGELOG.md');
  });
});
