/**
 * The benchmark cases, each run as whole processes on a generated corpus: full loads, the
 * incremental `--since-last` cases and the raw floor. Failures abort the benchmark loudly.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendBubble } from '../fixtures/bench/append-bubble.js';
import { appendTranscriptTurn } from '../fixtures/bench/append-transcript-turn.js';
import {
  type BenchCorpus,
  growingTranscriptSession,
  oneBubbleSession,
} from '../fixtures/bench/bench-corpus.js';
import { measureProcess, type Sample } from './measure-process.js';

export interface CaseResult {
  id: number;
  name: string;
  /** Why the case could not run on this build, or null when it ran. */
  unavailable: string | null;
  samples: Sample[];
  corpus: BenchCorpus | null;
  /** Whether messages/s and source MB/s describe this case (whole-corpus work). */
  wholeCorpus: boolean;
}

export interface BenchEnv {
  /** The `etl` launcher (bin/etl), so the CLI runs with the settings users get. */
  cli: string;
  /** The raw floor's script, run by plain `node`. */
  floor: string;
  workDir: string;
  runs: number;
  nodeFlags: readonly string[];
}

function checked(sample: Sample, what: string): Sample {
  if (sample.exitCode !== 0)
    throw new Error(`${what} failed (exit ${sample.exitCode}): ${sample.stderr.trim()}`);
  return sample;
}

function repeat(runs: number, once: (run: number) => Sample): Sample[] {
  return Array.from({ length: runs }, (_, run) => once(run));
}

/** The two roots a run reads. */
export type BenchSources = Pick<BenchCorpus, 'userDir' | 'storeRoot'>;

function runEtl(env: BenchEnv, corpus: BenchSources, target: string, extra: readonly string[] = []): Sample {
  return measureProcess(
    env.cli,
    [
      'run',
      '--cursor-user-dir',
      corpus.userDir,
      '--cursor-store-root',
      corpus.storeRoot,
      '--target',
      target,
      '--json',
      ...extra,
    ],
    env.nodeFlags,
  );
}

/** One full DuckDB load into a fresh warehouse, which stays for later cases. */
export function fullDuckDbOnceOn(env: BenchEnv, corpus: BenchSources, warehouse: string): Sample {
  rmSync(warehouse, { force: true });
  rmSync(`${warehouse}.wal`, { force: true });
  return checked(runEtl(env, corpus, `duckdb:${warehouse}`), 'full DuckDB load');
}

function fullDuckDbCase(id: number, corpus: BenchCorpus, samples: Sample[]): CaseResult {
  const name = `full load DuckDB (${corpus.stats.sessions} sessions)`;
  return { id, name, unavailable: null, samples, corpus, wholeCorpus: true };
}

/** Full DuckDB load into a fresh warehouse, `runs` times; the last warehouse stays for later cases. */
export function fullDuckDb(env: BenchEnv, id: number, corpus: BenchCorpus, warehouse: string): CaseResult {
  return fullDuckDbCase(
    id,
    corpus,
    repeat(env.runs, () => fullDuckDbOnceOn(env, corpus, warehouse)),
  );
}

/**
 * A full load with `--redact` into a fresh warehouse. Its identity key lives in the work
 * directory (named by a config file), never in the user's configuration.
 */
function fullRedactedOnce(env: BenchEnv, corpus: BenchCorpus): Sample {
  const warehouse = join(env.workDir, 'warehouse-redacted.duckdb');
  rmSync(warehouse, { force: true });
  rmSync(`${warehouse}.wal`, { force: true });
  const config = join(env.workDir, 'redaction-config.json');
  writeFileSync(config, JSON.stringify({ redactionKeyFile: join(env.workDir, 'redaction.key') }));
  return checked(
    runEtl(env, corpus, `duckdb:${warehouse}`, ['--redact', '--config', config]),
    'redacted load',
  );
}

/**
 * The full load, the redacted full load and the raw floor, run alternately: a shared machine's
 * slow and fast spells (the same build's full load ranged 19-29 s within an hour) then fall on
 * every side of their ratios.
 */
export function fullDuckDbBesideFloor(
  env: BenchEnv,
  ids: { full: number; floor: number; redacted: number },
  corpus: BenchCorpus,
  warehouse: string,
): [CaseResult, CaseResult, CaseResult] {
  const full: Sample[] = [];
  const redacted: Sample[] = [];
  const floor: Sample[] = [];
  for (let run = 0; run < env.runs; run++) {
    full.push(fullDuckDbOnceOn(env, corpus, warehouse));
    redacted.push(fullRedactedOnce(env, corpus));
    floor.push(rawFloorOnceOn(env, corpus));
  }
  return [
    fullDuckDbCase(ids.full, corpus, full),
    rawFloorCase(ids.floor, corpus, floor),
    {
      id: ids.redacted,
      name: `full load DuckDB --redact (${corpus.stats.sessions} sessions)`,
      unavailable: null,
      samples: redacted,
      corpus,
      wholeCorpus: true,
    },
  ];
}

export function fullParquet(env: BenchEnv, id: number, corpus: BenchCorpus): CaseResult {
  const dir = join(env.workDir, 'parquet');
  const samples = repeat(env.runs, () => {
    rmSync(dir, { recursive: true, force: true });
    return checked(runEtl(env, corpus, `parquet:${dir}`), 'full Parquet load');
  });
  return { id, name: 'full load Parquet', unavailable: null, samples, corpus, wholeCorpus: true };
}

/** `runs` times: apply `change` (one more source change per run, or none), then sync with `--since-last`. */
function sinceLastAfter(
  env: BenchEnv,
  id: number,
  name: string,
  corpus: BenchCorpus,
  warehouse: string,
  change: (run: number) => void,
): CaseResult {
  const samples = repeat(env.runs, (run) => {
    change(run);
    return checked(runEtl(env, corpus, `duckdb:${warehouse}`, ['--since-last']), name);
  });
  return { id, name, unavailable: null, samples, corpus, wholeCorpus: false };
}

export function sinceLastNoop(env: BenchEnv, id: number, corpus: BenchCorpus, warehouse: string): CaseResult {
  return sinceLastAfter(env, id, '--since-last, nothing changed', corpus, warehouse, () => undefined);
}

/** Each run appends one more bubble to the same session: one changed session per run. */
export function sinceLastOneBubble(
  env: BenchEnv,
  id: number,
  corpus: BenchCorpus,
  warehouse: string,
  seed: number,
): CaseResult {
  const session = oneBubbleSession(corpus);
  return sinceLastAfter(env, id, '--since-last, one bubble appended', corpus, warehouse, (run) =>
    appendBubble(corpus.userDir, session.id, seed + 1000 + run),
  );
}

/** Each run appends one more turn (three frames) to the same transcript-only session. */
export function sinceLastTranscript(
  env: BenchEnv,
  id: number,
  corpus: BenchCorpus,
  warehouse: string,
  seed: number,
): CaseResult {
  const name = '--since-last, one transcript grew';
  const session = growingTranscriptSession(corpus);
  if (session === null) return unavailableCase(id, name, 'n/a (no transcript-only session: --store-share 0)');
  return sinceLastAfter(env, id, name, corpus, warehouse, (run) =>
    appendTranscriptTurn(corpus.storeRoot, session, seed + 2000 + run),
  );
}

export function unavailableCase(id: number, name: string, reason: string): CaseResult {
  return { id, name, unavailable: reason, samples: [], corpus: null, wholeCorpus: false };
}

export function rawFloorOnceOn(env: BenchEnv, corpus: BenchSources): Sample {
  const out = join(env.workDir, 'floor.duckdb');
  rmSync(out, { force: true });
  rmSync(`${out}.wal`, { force: true });
  return checked(
    measureProcess(
      process.execPath,
      [env.floor, '--user-dir', corpus.userDir, '--store-root', corpus.storeRoot, '--out', out],
      env.nodeFlags,
    ),
    'raw floor',
  );
}

function rawFloorCase(id: number, corpus: BenchCorpus, samples: Sample[]): CaseResult {
  return {
    id,
    name: 'raw floor (bench/raw-floor.ts)',
    unavailable: null,
    samples,
    corpus,
    wholeCorpus: true,
  };
}
