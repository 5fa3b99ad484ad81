/**
 * `npm run bench:corpus -- --out DIR [--shape NAME] [shape flags, docs/benchmarks.md]`: writes the
 * deterministic benchmark corpus (`DIR/User`, `DIR/cursor`) and prints its sizes.
 */

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBenchCorpus } from '../fixtures/bench/bench-corpus.js';
import { CORPUS_FLAGS, corpusOptions } from './bench-args.js';

const options: Record<string, { type: 'string' }> = {};
for (const name of ['out', ...CORPUS_FLAGS]) options[name] = { type: 'string' };
const { values } = parseArgs({ args: process.argv.slice(2), options, strict: true });
const flags = values as Record<string, string | undefined>;
const out = resolve(flags.out ?? '.bench/corpus');
const { shape, options: corpus } = corpusOptions(flags);
const { userDir, storeRoot, stats } = buildBenchCorpus(out, corpus);
process.stdout.write(
  `${JSON.stringify({ shape: shape.name, options: corpus, userDir, storeRoot, ...stats }, null, 2)}\n`,
);
