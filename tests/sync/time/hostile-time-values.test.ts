import { describe, it } from 'vitest';
import {
  FIXED_HOSTILE_TOKENS,
  generatedHostileTokens,
  generatedInstantTokens,
} from '../../../fixtures/time/time-corpus.js';
import { prng } from '../../helpers/prng.js';
import { expectHostileTimesUnknown, expectTimesStored } from '../../helpers/time-corpus-run.js';

describe('a time value that is not a time never stops a run (every source, every time field)', () => {
  it('fixed family plus a small seeded sample: each field unknown, TIME_VALUE_UNKNOWN, the run commits', async () => {
    await expectHostileTimesUnknown([...FIXED_HOSTILE_TOKENS, ...generatedHostileTokens(prng(36), 6)]);
  }, 120_000);

  it('a seeded family of valid times in every accepted form: each field stores its instant, the run commits', async () => {
    await expectTimesStored(generatedInstantTokens(prng(36), 12));
  }, 120_000);
});
