import { describe, expect, it } from 'vitest';
import { SOURCE_CHANGES, type SourceChange } from '../../fixtures/sync/source-world.js';
import { changesForSeed, checkConvergence } from '../helpers/sync-convergence.js';

/** The two cases, an UPDATE beside a Cursor write, then one sequence through every change kind. */
const FIXED: { name: string; seed: number; changes: SourceChange[] }[] = [
  {
    name: 'an in-place UPDATE of a bubble (same key, rowid and length)',
    seed: 1,
    changes: ['bubble-update-same-length'],
  },
  { name: 'a renamed project (workspace.json edited)', seed: 2, changes: ['workspace-json-edit'] },
  {
    name: 'an in-place UPDATE of one session while Cursor writes another',
    seed: 4,
    changes: ['bubble-update-beside-insert'],
  },
  {
    name: 'an in-place UPDATE of a codeBlockDiff row (same key, rowid and length), then its delete and insert',
    seed: 5,
    changes: ['code-block-diff-update-same-length', 'code-block-diff-delete', 'code-block-diff-insert'],
  },
  { name: 'every change kind once', seed: 3, changes: [...SOURCE_CHANGES] },
];
/** More, and longer, sequences run in the reliability lane (`tests/reliability/since-last-convergence.test.ts`). */
const RANDOM_SEEDS = Array.from({ length: 20 }, (_, i) => 1000 + i);
const STEPS = 2;

describe('--since-last converges to exactly what a full run loads', { timeout: 600_000 }, () => {
  for (const { name, seed, changes } of FIXED) {
    it(`fixed seed ${seed}: ${name}`, async () => {
      const divergence = await checkConvergence(seed, changes);
      expect(divergence, `seed ${seed}: ${JSON.stringify(divergence)}`).toBeNull();
    });
  }

  it(`${RANDOM_SEEDS.length} random sequences of ${STEPS} changes (seeds ${RANDOM_SEEDS[0]}–${RANDOM_SEEDS.at(-1)})`, async () => {
    for (const seed of RANDOM_SEEDS) {
      const divergence = await checkConvergence(seed, changesForSeed(seed, STEPS));
      expect(divergence, `seed ${seed}: ${JSON.stringify(divergence)}`).toBeNull();
    }
  });
});
