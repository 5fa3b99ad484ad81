/**
 * Named corpus shapes of `npm run bench -- --shape NAME`: the default corpus and the shapes a new
 * user's history may have (many short chats, tool-heavy with Store and merged sessions, a global DB
 * in rollback-journal mode). Explicit corpus flags override a shape's values.
 */
import type { BenchCorpusOptions } from '../fixtures/bench/bench-corpus.js';

export interface BenchShape {
  name: string;
  description: string;
  options: Omit<BenchCorpusOptions, 'seed'>;
}

export const BENCH_SHAPES: readonly BenchShape[] = [
  {
    name: 'default',
    description: '2,000 sessions × ~100 bubbles, a quarter with a Store form (half of those merged)',
    options: { sessions: 2000, messages: 100, storeShare: 0.25 },
  },
  {
    name: 'short',
    description: '12,500 short sessions × ~6 bubbles, a fifth with a Store form',
    options: { sessions: 12_500, messages: 6, storeShare: 0.2 },
  },
  {
    name: 'tool-heavy',
    description:
      '2,500 sessions × ~100 bubbles, ~30 % tool bubbles, 8 % large results, 500 Store sessions all merged',
    options: {
      sessions: 2500,
      messages: 100,
      storeShare: 0.2,
      mergedShare: 1,
      toolShare: 0.6,
      largeResultShare: 0.08,
    },
  },
  {
    name: 'store-heavy',
    description: '1,000 sessions × ~100 bubbles, every one a Store session, none merged',
    options: { sessions: 1000, messages: 100, storeShare: 1, mergedShare: 0 },
  },
  {
    name: 'rollback',
    description: 'the default corpus with its global DB in rollback-journal (DELETE) mode',
    options: { sessions: 2000, messages: 100, storeShare: 0.25, journalMode: 'delete' },
  },
];

export function benchShape(name: string): BenchShape {
  const shape = BENCH_SHAPES.find((s) => s.name === name);
  if (!shape) throw new Error(`--shape must be one of ${BENCH_SHAPES.map((s) => s.name).join(', ')}`);
  return shape;
}
