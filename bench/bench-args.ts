/** Shared numeric flag parsing of the bench scripts (`--name value`, positive integers). */
import { parseArgs } from 'node:util';
import type { BenchCorpusOptions } from '../fixtures/bench/bench-corpus.js';
import { type BenchShape, benchShape } from './bench-shapes.js';

/** About a quarter of the sessions have a Cursor Store form, as the issue asks. */
export const DEFAULT_STORE_SHARE = 0.25;

export function parseIntFlags<K extends string>(
  argv: readonly string[],
  defaults: Record<K, number>,
  strings: readonly string[] = [],
): { ints: Record<K, number>; strings: Record<string, string | undefined> } {
  const options: Record<string, { type: 'string' }> = {};
  for (const name of [...Object.keys(defaults), ...strings]) options[name] = { type: 'string' };
  const { values } = parseArgs({ args: [...argv], options, strict: true });
  const ints = { ...defaults };
  for (const name of Object.keys(defaults) as K[]) {
    const raw = values[name];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 0)
      throw new Error(`--${name} must be a non-negative integer`);
    ints[name] = value;
  }
  const rest: Record<string, string | undefined> = {};
  for (const name of strings) rest[name] = values[name] as string | undefined;
  return { ints, strings: rest };
}

/** A share flag such as `--store-share 0.25`: a number in [0, 1], `fallback` when absent. */
export function parseShare(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1)
    throw new Error(`--${name} must be a number from 0 to 1`);
  return value;
}

/** The corpus flags shared by `bench:corpus` and `bench`; each overrides the `--shape` preset. */
export const CORPUS_FLAGS = [
  'shape',
  'sessions',
  'messages',
  'seed',
  'store-share',
  'agentkv-share',
  'tool-share',
  'large-result-share',
  'merged-share',
  'store-messages',
  'journal-mode',
] as const;

function parseCount(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isSafeInteger(value) || value < 0)
    throw new Error(`--${name} must be a non-negative integer`);
  return value;
}

/** The corpus options of a `--shape` preset (`default` when absent) with every explicit flag applied. */
export function corpusOptions(flags: Record<string, string | undefined>): {
  shape: BenchShape;
  options: BenchCorpusOptions;
} {
  const shape = benchShape(flags.shape ?? 'default');
  const base: BenchCorpusOptions = { seed: 1, ...shape.options };
  const journal = flags['journal-mode'];
  if (journal !== undefined && journal !== 'wal' && journal !== 'delete')
    throw new Error('--journal-mode must be wal or delete');
  const share = (name: string, fallback: number | undefined): number | undefined =>
    flags[name] === undefined ? fallback : parseShare(name, flags[name], 0);
  const options: BenchCorpusOptions = {
    sessions: parseCount('sessions', flags.sessions) ?? base.sessions,
    messages: parseCount('messages', flags.messages) ?? base.messages,
    seed: parseCount('seed', flags.seed) ?? base.seed,
    storeShare: share('store-share', base.storeShare) ?? DEFAULT_STORE_SHARE,
  };
  const optional = {
    agentKvShare: share('agentkv-share', base.agentKvShare),
    toolShare: share('tool-share', base.toolShare),
    largeResultShare: share('large-result-share', base.largeResultShare),
    mergedShare: share('merged-share', base.mergedShare),
    storeMessages: parseCount('store-messages', flags['store-messages']) ?? base.storeMessages,
    journalMode: (journal as 'wal' | 'delete' | undefined) ?? base.journalMode,
  };
  // Only options that differ from the generator's defaults, so a corpus built without them is reused.
  for (const [key, value] of Object.entries(optional))
    if (value !== undefined && !(key === 'agentKvShare' && value === 0))
      (options as unknown as Record<string, unknown>)[key] = value;
  return { shape, options };
}
