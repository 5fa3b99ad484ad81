import { describe, expect, it } from 'vitest';
import { defaultOrigin, parseOrigin } from '../../src/shared/run-origin.js';

describe('run origin', () => {
  it('derives user@host from the first host label, sanitized', () => {
    expect(defaultOrigin({ user: 'Ana María', host: 'Ana-MBP.corp.example.com' })).toBe('ana-mar-a@ana-mbp');
    expect(defaultOrigin({ user: null, host: 'devbox' })).toBe('devbox');
    expect(defaultOrigin({ user: 'ci', host: '' })).toBe('ci');
    expect(defaultOrigin({ user: '///', host: null })).toBe('local');
    expect(parseOrigin(defaultOrigin({ user: 'x'.repeat(80), host: 'y'.repeat(80) }))).toMatch(/^x+@y+$/);
  });

  it('accepts 1-64 names of letters, digits, . - _ @ and refuses anything else without echoing it', () => {
    expect(parseOrigin('laptop-ana')).toBe('laptop-ana');
    for (const bad of ['', ' lead', 'a b', '-x', 'x'.repeat(65), 'ana/../etc', 'tok=secret'])
      expect(() => parseOrigin(bad)).toThrow(
        expect.objectContaining({ code: 'ORIGIN_INVALID', details: { length: bad.length } }),
      );
  });
});
