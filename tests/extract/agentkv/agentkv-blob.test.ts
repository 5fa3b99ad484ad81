import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeProto } from '../../../fixtures/agentkv/protobuf-writer.js';
import { blobIdOfKey, decodeBlob } from '../../../src/extract/agentkv/agentkv-blob.js';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const utf8 = (text: string) => Buffer.from(text, 'utf8');

describe('agentKv blob values (cursor-formats §1.2)', () => {
  it('a binary JSON value is kind json, its hash verified against the key', () => {
    const bytes = utf8('{"role":"user","content":"hi"}');
    const blob = decodeBlob(sha(bytes), bytes);
    expect(blob).toMatchObject({ kind: 'json', encoding: 'binary', hashMatches: true });
    expect(blob.json).toEqual({ role: 'user', content: 'hi' });
  });

  it('a legacy hex-text value is hex-decoded first (the hash of the content names it)', () => {
    const content = utf8('{"role":"assistant","content":"ok"}');
    const blob = decodeBlob(sha(content), utf8(content.toString('hex')));
    expect(blob).toMatchObject({ kind: 'json', encoding: 'hex-text', hashMatches: true });
  });

  it('one 0x00 byte is the empty blob', () => {
    const bytes = Buffer.from([0]);
    expect(decodeBlob(sha(bytes), bytes)).toMatchObject({ kind: 'empty', hashMatches: true });
  });

  it('protobuf, raw text and opaque bytes are told apart by their first byte and a protobuf walk', () => {
    const proto = encodeProto([
      [1, 'Rename foo'],
      [25, 1786300000000],
    ]);
    expect(decodeBlob(sha(proto), proto).kind).toBe('protobuf');
    const text = utf8('# Notes\n- a list\n');
    expect(decodeBlob(sha(text), text).kind).toBe('text');
    const opaque = Buffer.concat([Buffer.from([0xff, 0xfe]), randomBytes(40)]);
    expect(decodeBlob(sha(opaque), opaque).kind).toBe('opaque');
    const brokenJson = utf8('{"role": "user"');
    expect(decodeBlob(sha(brokenJson), brokenJson).kind).toBe('text');
  });

  it('a value whose hash is not the key is flagged, not silently trusted', () => {
    const bytes = utf8('{"role":"user","content":"tampered"}');
    expect(decodeBlob(sha(utf8('something else')), bytes)).toMatchObject({
      kind: 'json',
      hashMatches: false,
    });
  });

  it('only `agentKv:blob:` + 64 lowercase hex is a blob key', () => {
    const id = 'a'.repeat(64);
    expect(blobIdOfKey(`agentKv:blob:${id}`)).toBe(id);
    expect(blobIdOfKey(`agentKv:blob:${id.toUpperCase()}`)).toBeNull();
    expect(blobIdOfKey('agentKv:blob:abc')).toBeNull();
    expect(blobIdOfKey(`agentKv:checkpoint:${id}`)).toBeNull();
  });
});
