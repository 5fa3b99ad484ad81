import { describe, expect, it } from 'vitest';
import { ToolIdentityAllocator } from '../../src/transform/tool-identity.js';

describe('tool identity v1', () => {
  it('tool:v1:<messageId>:<canonical-input-hash>:<one-based occurrence> (reference worked example)', () => {
    const allocator = new ToolIdentityAllocator('b-0002');
    expect(allocator.next({ name: 'read_file', params: { path: '/home/dev/acme-api/src/app.ts' } })).toBe(
      'tool:v1:b-0002:dde68ec930ccc1751442cfc498bb571d82b8b99dd3f4472b656614acff31d24f:1',
    );
  });

  it('counts occurrences of equal inputs within one message', () => {
    const allocator = new ToolIdentityAllocator('m');
    const first = allocator.next({ name: 'x', params: { a: 1 } });
    const other = allocator.next({ name: 'x', params: { a: 2 } });
    const second = allocator.next({ name: 'x', params: { a: 1 } });
    expect(first.endsWith(':1')).toBe(true);
    expect(other.endsWith(':1')).toBe(true);
    expect(second).toBe(first.replace(/:1$/, ':2'));
  });
});
