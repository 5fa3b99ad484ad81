import { describe, expect, it } from 'vitest';
import type { ComposerGlobalBytesContribution } from '../../../src/extract/composer/composer-contribution.js';
import { decodeGlobalSession } from '../../../src/extract/composer/global-session-decode.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

function decodeBubbles(values: readonly (Uint8Array | null)[]) {
  const contribution: ComposerGlobalBytesContribution = {
    kind: 'composer-global-bytes',
    occurrence: {
      sessionId: 's',
      sourceKey: 'k',
      representation: 'composer-global',
      carrier: 'live',
      occurrenceRef: 'r',
      workspacePath: null,
      handle: null,
    },
    diagnostics: [],
    data: {
      scope: { sessionId: 's', sourceRef: 'r' },
      doc: undefined,
      bubbles: values.map((bytes, i) => ({ rowid: i + 1, keyBubbleId: `b${i}`, bytes })),
      readFailure: null,
    },
  };
  return decodeGlobalSession(contribution).data.bubbles;
}

describe('decodeGlobalSession', () => {
  it('rejects a lone surrogate escape in any value as invalid encoding, in either case of hex digit', () => {
    const lone = ['"\\ud800"', '"x\\uDBFF"', '"\\udc00y"', '"\\uDfFf"', '["a", {"k": "\\ud83d"}]'];
    const bubbles = decodeBubbles(lone.map((json) => utf8(`{"text": ${json}}`)));
    expect(bubbles.map((b) => b.corruption)).toEqual(lone.map(() => 'invalid-encoding'));
  });

  it('rejects a lone surrogate escape in a member name as invalid encoding, at any depth', () => {
    const objects = [
      '{"\\ud800": 1}',
      '{"text": "ok", "meta": {"x\\uDC00": "v"}}',
      '{"list": [{"\\udbff": null}]}',
    ];
    const bubbles = decodeBubbles(objects.map((json) => utf8(json)));
    expect(bubbles.map((b) => b.corruption)).toEqual(objects.map(() => 'invalid-encoding'));
  });

  it('accepts escaped surrogate pairs, other \\u escapes and an escaped backslash before "ud800"', () => {
    const texts = ['"\\ud83d\\ude00"', '"\\u001b[0m\\u00e9"', '"\\\\ud800"', '"no escape at all"'];
    const bubbles = decodeBubbles(texts.map((json) => utf8(`{"text": ${json}}`)));
    expect(bubbles.map((b) => b.corruption)).toEqual(texts.map(() => null));
    expect(bubbles.map((b) => b.value!.text)).toEqual(['😀', '\u001b[0mé', '\\ud800', 'no escape at all']);
  });

  it('keeps invalid UTF-8, misplaced BOMs, bad JSON and non-objects as typed corruption', () => {
    const bubbles = decodeBubbles([
      new Uint8Array([0x7b, 0x7d, 0xff]),
      new Uint8Array([0x7b, 0xed, 0xa0, 0x80, 0x7d]),
      utf8('{"a": "\uFEFF"}'),
      utf8('\uFEFF{"a": 1}'),
      utf8('{"a": '),
      utf8('[1]'),
      null,
    ]);
    expect(bubbles.map((b) => b.corruption)).toEqual([
      'invalid-encoding',
      'invalid-encoding',
      'invalid-encoding',
      null,
      'invalid-json',
      'not-an-object',
      'null-value',
    ]);
  });
});
