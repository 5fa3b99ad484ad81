import { describe, expect, it } from 'vitest';
import {
  SPECSTORY_V2_UUID,
  SPECSTORY_V15_UUID,
  specStoryV1,
  specStoryV1Oldest,
  specStoryV2,
  specStoryV15,
} from '../../../../fixtures/capture/markdown-captures.js';
import { CaptureSchemaUnsupported } from '../../../../src/extract/capture/capture-rejection.js';
import { parseSpecStory } from '../../../../src/extract/capture/markdown/specstory-parser.js';

const parse = (text: string) => parseSpecStory(text.split('\n'));

describe('SpecStory parser, all four generations', () => {
  it('v1 oldest: `## SpecStory`, `_****_` steps join the assistant turn, locale title date stays opaque', () => {
    const doc = parse(specStoryV1Oldest());
    expect(doc.generation).toBe('specstory-v1-oldest');
    expect(doc.title).toBe('Fix the build script');
    expect(doc.opaqueDates).toEqual(['3/11/2025, 8:11:06 PM']);
    expect(doc.turns.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(doc.turns[1]!.text).toContain('Read file: scripts/build.sh');
    expect(doc.turns[1]!.text).toContain('Use `path.join`');
    expect(doc.sessionIdOrigin).toBe('content-v1');
  });

  it('v1: empty user turns are not prompts and markers inside fenced code are ignored', () => {
    const doc = parse(specStoryV1());
    expect(doc.generation).toBe('specstory-v1');
    expect(doc.emptyUserTurns).toBe(1);
    expect(doc.turns.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(doc.turns[0]!.text).toContain('_**Assistant**_ quoted inside code is not a marker');
  });

  it('v1.5: session UUID, user stamps (UTC minutes), assistant model, `Tool use:` lines HTML-unescaped', () => {
    const doc = parse(specStoryV15());
    expect(doc.generation).toBe('specstory-v1.5');
    expect(doc.sessionId).toBe(SPECSTORY_V15_UUID);
    expect(doc.sessionIdOrigin).toBe('specstory-uuid');
    expect(doc.declaredAtMs).toBe(Date.UTC(2025, 8, 1, 10, 0));
    expect(doc.turns[0]!.stampedAtMs).toBe(Date.UTC(2025, 8, 1, 10, 0));
    expect(doc.turns[1]!.model).toBe('example-model');
    expect(doc.turns[1]!.tools).toEqual([
      { name: 'run_terminal_cmd', toolType: null, summary: 'Run command: npm test -- --threads && echo ok' },
    ]);
  });

  it('v2: `Agent (model …, mode …)` markers and `<tool-use>` blocks', () => {
    const doc = parse(specStoryV2({ extraTurn: true }));
    expect(doc.generation).toBe('specstory-v2');
    expect(doc.formatVersion).toBe('2.1.0');
    expect(doc.sessionId).toBe(SPECSTORY_V2_UUID);
    expect(doc.turns.map((t) => [t.role, t.model, t.mode])).toEqual([
      ['user', null, null],
      ['assistant', 'example-model', 'Agent'],
      ['user', null, null],
      ['assistant', null, 'Agent'],
    ]);
    expect(doc.turns[1]!.tools).toEqual([
      {
        name: 'read_file',
        toolType: 'read',
        summary: 'Tool use: **read_file** • Read file: /synthetic/ws/CHANGELOG.md',
      },
    ]);
  });

  it('a declared unknown major Markdown version fails closed', () => {
    expect(() => parse(specStoryV2({ version: '3.0.0' }))).toThrow(CaptureSchemaUnsupported);
  });
});
