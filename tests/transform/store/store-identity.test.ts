import { describe, expect, it } from 'vitest';
import {
  claimId,
  StoreIdentityAllocator,
  transcriptFingerprint,
} from '../../../src/transform/store/store-identity.js';

describe('Store message identity v1 (cursor-formats §2.9 worked examples)', () => {
  it('unmatched Store transcript message: store:v1:transcript:<sha256 canonical {role, content, toolActivity, sourceRelationships}>:<n>', () => {
    const allocator = new StoreIdentityAllocator('transcript');
    const fingerprint = transcriptFingerprint({
      role: 'assistant',
      content: 'Reading the file.',
      toolActivity: [{ name: 'Read', params: { path: '/tmp/foo.txt' } }],
      sourceRelationships: {},
    });
    expect(allocator.next(fingerprint)).toBe(
      'store:v1:transcript:728a498d8cfac2cab81f2a9fa2ad856b2b8fd1eb54956568530cfb6ffa2e8624:1',
    );
    const user = transcriptFingerprint({
      role: 'user',
      content: '<user_query>\nRead foo.txt\n</user_query>',
      toolActivity: [],
      sourceRelationships: {},
    });
    expect(allocator.next(user)).toBe(
      'store:v1:transcript:18cbc587f6d6e40d49acffff66669021d0639eab7bc191d7c5c67e2ff50e11e7:1',
    );
  });

  it('occurrences count equal fingerprints in source-native order', () => {
    const allocator = new StoreIdentityAllocator('db');
    const hash = 'a'.repeat(64);
    expect([allocator.next(hash), allocator.next('b'.repeat(64)), allocator.next(hash)]).toEqual([
      `store:v1:db:${hash}:1`,
      `store:v1:db:${'b'.repeat(64)}:1`,
      `store:v1:db:${hash}:2`,
    ]);
  });

  it('Store-only collision: append the smallest free :collision:<n>, never rewriting the taken ID', () => {
    const taken = new Set(['store:v1:db:x:1', 'store:v1:db:x:1:collision:1']);
    expect(claimId('store:v1:db:x:1', taken)).toBe('store:v1:db:x:1:collision:2');
    expect(claimId('store:v1:db:y:1', taken)).toBe('store:v1:db:y:1');
    expect(taken.has('store:v1:db:x:1')).toBe(true);
  });
});
