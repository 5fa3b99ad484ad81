import { describe, expect, it } from 'vitest';
import { changesForSeed, checkConvergence } from '../helpers/sync-convergence.js';

/** `SINCE_LAST_SEQUENCES` / `SINCE_LAST_STEPS` / `SINCE_LAST_FIRST_SEED` widen or replay the sweep. */
const SEQUENCES = Number(process.env.SINCE_LAST_SEQUENCES ?? 25);
const STEPS = Number(process.env.SINCE_LAST_STEPS ?? 6);
const FIRST_SEED = Number(process.env.SINCE_LAST_FIRST_SEED ?? 20_000);

describe('--since-last converges to exactly what a full run loads (sweep)', { timeout: 3_600_000 }, () => {
  it(`${SEQUENCES} random sequences of ${STEPS} changes from seed ${FIRST_SEED}`, async () => {
    for (let seed = FIRST_SEED; seed < FIRST_SEED + SEQUENCES; seed++) {
      const divergence = await checkConvergence(seed, changesForSeed(seed, STEPS));
      expect(divergence, `seed ${seed}: ${JSON.stringify(divergence)}`).toBeNull();
    }
  });
});
