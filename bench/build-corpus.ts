/**
 * `npm run bench:corpus -- --sessions N --messages M --out DIR [--seed S] [--store-share F]
 * [--agentkv-share F]`:
 * writes the deterministic benchmark corpus (`DIR/User`, `DIR/cursor`) and prints its sizes.
 */
import { resolve } from 'node:path';
import { buildBenchCorpus } from '../fixtures/bench/bench-corpus.js';
import { DEFAULT_STORE_SHARE, parseIntFlags, parseShare } from './bench-args.js';

const { ints, strings } = parseIntFlags(process.argv.slice(2), { sessions: 2000, messages: 100, seed: 1 }, [
  'out',
  'store-share',
  'agentkv-share',
]);
const out = resolve(strings.out ?? '.bench/corpus');
const { userDir, storeRoot, stats } = buildBenchCorpus(out, {
  sessions: ints.sessions,
  messages: ints.messages,
  seed: ints.seed,
  storeShare: parseShare('store-share', strings['store-share'], DEFAULT_STORE_SHARE),
  agentKvShare: parseShare('agentkv-share', strings['agentkv-share'], 0),
});
process.stdout.write(`${JSON.stringify({ userDir, storeRoot, ...stats }, null, 2)}\n`);
