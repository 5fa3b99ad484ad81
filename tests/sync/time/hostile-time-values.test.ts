import { describe, it } from 'vitest';
import { FIXED_HOSTILE_TOKENS, generatedHostileTokens } from '../../../fixtures/time/time-corpus.js';
import { prng } from '../../helpers/prng.js';
import { expectHostileTimesUnknown } from '../../helpers/time-corpus-run.js';

describe('a time value that is not a time never stops a run (every source, every time field)', () => {
  it('fixed family plus a small seeded sample: each field unknown, TIME_VALUE_UNKNOWN, the run commits', async () => {
    await expectHostileTimesUnknown([...FIXED_HOSTILE_TOKENS, ...generatedHostileTokens(prng(36), 6)]);
  }, 120_000);
});
