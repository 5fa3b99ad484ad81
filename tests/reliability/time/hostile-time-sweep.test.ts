import { describe, it } from 'vitest';
import { generatedHostileTokens, generatedInstantTokens } from '../../../fixtures/time/time-corpus.js';
import { prng } from '../../helpers/prng.js';
import { expectHostileTimesUnknown, expectTimesStored } from '../../helpers/time-corpus-run.js';

describe('generated time values never stop a run (sweep)', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: 40 generated values per field are unknown with a diagnostic`, async () => {
      await expectHostileTimesUnknown(generatedHostileTokens(prng(seed), 40));
    }, 300_000);
  }
  for (const seed of [4, 5]) {
    it(`seed ${seed}: 36 generated valid times per field are stored as their instants`, async () => {
      await expectTimesStored(generatedInstantTokens(prng(seed), 36));
    }, 300_000);
  }
});
