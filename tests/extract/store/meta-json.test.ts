import { describe, expect, it } from 'vitest';
import { parseMetaJson } from '../../../src/extract/store/meta-json.js';

const bytes = (text: string | number[]): Buffer =>
  typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text);

describe('meta.json facts', () => {
  it('names why a meta.json is not supported metadata', () => {
    expect(parseMetaJson(bytes([0x7b, 0xff, 0x7d])).problem).toBe('invalid-encoding');
    expect(parseMetaJson(bytes('{"cwd":"/w\\udc00"}')).problem).toBe('invalid-encoding');
    expect(parseMetaJson(bytes('{"cwd":')).problem).toBe('invalid-json');
    expect(parseMetaJson(bytes('["x"]')).problem).toBe('not-an-object');
    expect(parseMetaJson(bytes('{"schemaVersion":"1"}')).problem).toBe('invalid-schema-version');
    expect(parseMetaJson(bytes('{"schemaVersion":2,"cwd":"/w"}')).problem).toBe('unknown-schema-version');
  });

  it('a documented field of another type is damage: that field is unknown, the others are kept', () => {
    for (const text of ['{"cwd":7}', '{"title":{}}', '{"hasConversation":"yes"}', '{}'])
      expect({ text, problem: parseMetaJson(bytes(text)).problem }).toEqual({
        text,
        problem: 'wrong-field-type',
      });
    const facts = parseMetaJson(bytes('{"schemaVersion":1,"cwd":["/w"],"title":"T","hasConversation":true}'));
    expect(facts).toMatchObject({
      problem: 'wrong-field-type',
      cwd: null,
      title: 'T',
      hasConversation: true,
    });
  });

  it('keeps only documented fields of supported metadata, with no problem', () => {
    const facts = parseMetaJson(
      bytes('{"schemaVersion":1,"cwd":"/w","blobEncryptionKey":"k","hasConversation":true}'),
    );
    expect(facts).toEqual({
      problem: null,
      hasConversation: true,
      cwd: '/w',
      title: null,
      createdAtMs: null,
      updatedAtMs: null,
      timeProblems: [],
    });
  });
});
