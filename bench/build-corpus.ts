/**
 * `npm run bench:corpus -- --sessions N --messages M --out DIR [--seed S] [--store-share 0]`:
 * writes the deterministic benchmark corpus and prints its sizes.
 */
import { resolve } from 'node:path';
import { buildBenchCorpus } from '../fixtures/bench/bench-corpus.js';
import { parseIntFlags } from './bench-args.js';

const { ints, strings } = parseIntFlags(
  process.argv.slice(2),
  { sessions: 2000, messages: 100, seed: 1, 'store-share': 0 },
  ['out'],
);
const out = resolve(strings.out ?? '.bench/corpus');
const { stats } = buildBenchCorpus(out, {
  sessions: ints.sessions,
  messages: ints.messages,
  seed: ints.seed,
  storeShare: ints['store-share'],
});
process.stdout.write(`${JSON.stringify({ out, ...stats }, null, 2)}\n`);
