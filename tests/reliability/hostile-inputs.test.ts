import { beforeAll, describe, expect, it } from 'vitest';
import { countsPerKind, hostileCorpus } from '../../fixtures/hostile/hostile-corpus.js';
import {
  buildHealthyArchive,
  type HealthyArchive,
  modeFor,
  runHostileCase,
} from './harness/hostile-runner.js';

const corpus = hostileCorpus();

describe('hostile inputs: every case ends typed, bounded, private and without touching archived sessions', () => {
  let healthy: HealthyArchive;
  beforeAll(async () => {
    healthy = await buildHealthyArchive();
  }, 300_000);

  it('the generated corpus has at least 100 distinct bad inputs', () => {
    const names = new Set(corpus.map((c) => c.name));
    expect(names.size).toBe(corpus.length);
    expect(corpus.length).toBeGreaterThanOrEqual(100);
    console.log(`hostile inputs per source kind: ${JSON.stringify(countsPerKind(corpus))}`);
  });

  for (const hostile of corpus) {
    it(hostile.name, async () => {
      await runHostileCase(hostile, healthy, modeFor(hostile));
    }, 120_000);
  }
});
