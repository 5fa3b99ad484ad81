/**
 * "Every data file is checked": every damage kind at every position, in every table of a published
 * Parquet state. verify names the table and partition (exit 5), status stays typed and path-free,
 * and the next run (full or --since-last) rebuilds the lost partitions from the sources.
 */
import { beforeAll, describe, it } from 'vitest';
import { ALL_DAMAGES } from '../../fixtures/parquet/file-damage.js';
import { LEDGER_TABLES } from '../../schemas/ledger-tables.js';
import { CONTENT_TABLES } from '../../schemas/tables.js';
import { contentOf, type DamageCase, runDamageCase } from '../helpers/damaged-dataset.js';
import { prng } from '../helpers/prng.js';
import { tempDir } from '../helpers/run-cli.js';
import { loadSample, type SampleWarehouse } from '../helpers/sample-warehouse.js';

const TABLES = [...CONTENT_TABLES, ...LEDGER_TABLES].map((t) => t.name);

/** Each damage twice, on tables dealt from a seeded shuffle so every table takes two damages. */
function cases(seed: number): DamageCase[] {
  const random = prng(seed);
  const deck = [...TABLES, ...TABLES].sort(() => random() - 0.5);
  return [...ALL_DAMAGES, ...ALL_DAMAGES].map((damage, i) => ({
    table: deck[i]!,
    damage,
    pick: random(),
    sinceLast: random() < 0.5,
  }));
}

describe('a damaged data file never spreads into a new state', { timeout: 120_000 }, () => {
  let sample: SampleWarehouse;
  let intact: unknown[];
  beforeAll(() => {
    sample = loadSample('parquet');
    intact = contentOf(sample.target);
  });

  it.each(cases(35))('$damage.kind at $damage.position of a $table file (since-last: $sinceLast)', (c) =>
    runDamageCase(sample, intact, tempDir('etl-damage-'), c),
  );
});
