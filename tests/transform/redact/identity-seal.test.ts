import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IdentitySeal, isContentHashedId } from '../../../src/transform/redact/identity-seal.js';

const H = 'a'.repeat(64);
const G = 'b'.repeat(64);

describe('sealed identity (keyed hash over identity v1 content hashes)', () => {
  it('seals every content-hashed ID family, keeps native IDs, occurrences and collisions, and is idempotent', () => {
    const seal = new IdentitySeal('01'.repeat(32));
    const sealed = seal.sealId(`capture:v1:${H}:2`);
    expect(sealed).toMatch(/^capture:v1k:[0-9a-f]{64}:2$/);
    expect(sealed).not.toContain(H);
    expect(seal.sealId(sealed)).toBe(sealed);
    expect(seal.sealId(`store:v1:transcript:${H}:1:collision:1`)).toMatch(
      /^store:v1k:transcript:[0-9a-f]{64}:1:collision:1$/,
    );
    expect(seal.sealId(`store:v1:db:${H}:3`)).toMatch(/^store:v1k:db:[0-9a-f]{64}:3$/);
    expect(seal.sealId(`markdown:v1:${H}`)).toMatch(/^markdown:v1k:[0-9a-f]{64}$/);
    const tool = seal.sealId(`tool:v1:capture:v1:${H}:1:${G}:2`);
    expect(tool).toBe(`tool:v1k:${seal.sealId(`capture:v1:${H}:1`)}:${tool.split(':').at(-2)}:2`);
    expect(tool).not.toContain(G);
    for (const native of [
      '0b1c2d3e-uuid',
      'msg:3',
      'run-1',
      `tool:v1:bubble-1:${G}:1`.replace('tool:v1', 'toolu'),
    ])
      expect(seal.sealId(native)).toBe(native);
    expect(isContentHashedId(`capture:v1:${H}:1`)).toBe(true);
  });

  it('another key gives other IDs; the key check tells keys apart', () => {
    const a = new IdentitySeal('01'.repeat(32));
    const b = new IdentitySeal('02'.repeat(32));
    expect(a.sealId(`capture:v1:${H}:1`)).not.toBe(b.sealId(`capture:v1:${H}:1`));
    expect(a.keyCheck()).not.toBe(b.keyCheck());
    expect(a.keyCheck()).toBe(new IdentitySeal('01'.repeat(32)).keyCheck());
  });

  it('is HMAC-SHA256 under the key (sealed IDs of existing warehouses stay the same), long keys too', () => {
    for (const keyHex of ['01'.repeat(32), 'c3'.repeat(100)]) {
      const hmac = (message: string): string =>
        createHmac('sha256', Buffer.from(keyHex, 'hex')).update(message).digest('hex');
      const seal = new IdentitySeal(keyHex);
      expect(seal.keyCheck()).toBe(hmac('cursor-etl key check\0v1'));
      expect(seal.sealId(`markdown:v1:${H}`)).toBe(`markdown:v1k:${hmac(`id\0${H}`)}`);
      expect(seal.sealRef('ref-1')).toBe(hmac('ref\0ref-1'));
    }
  });
});
