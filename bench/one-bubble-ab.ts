/**
 * `node dist/bench/one-bubble-ab.js --corpus DIR [--baseline ROOT] [--runs R] [--full-runs F]
 * [--journal-mode wal|delete] [--writer-probe 1] [--work DIR]`: bench case 4 alone, this build and
 * optionally another checkout, alternating (docs/benchmarks.md). The corpus is used up.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendBubble } from '../fixtures/bench/append-bubble.js';
import {
  type BenchCorpusOptions,
  CORPUS_MANIFEST,
  existingBenchCorpus,
  forgetBenchCorpus,
  oneBubbleSession,
} from '../fixtures/bench/bench-corpus.js';
import { Database } from '../src/extract/sqlite/sqlite-driver.js';
import { parseIntFlags } from './bench-args.js';
import { measureProcess, type Sample } from './measure-process.js';

const { ints, strings } = parseIntFlags(
  process.argv.slice(2),
  { runs: 5, 'full-runs': 1, seed: 1, 'writer-probe': 0 },
  ['corpus', 'baseline', 'journal-mode', 'work'],
);
const journalMode = strings['journal-mode'] ?? 'wal';
if (journalMode !== 'wal' && journalMode !== 'delete')
  throw new Error('--journal-mode must be wal or delete');
if (strings.corpus === undefined) throw new Error('--corpus DIR is required');
const corpusDir = resolve(strings.corpus);
const saved = JSON.parse(readFileSync(join(corpusDir, CORPUS_MANIFEST), 'utf8')) as {
  options: BenchCorpusOptions;
};
const found = existingBenchCorpus(corpusDir, saved.options);
if (found === null) throw new Error('--corpus has no corpus manifest');
const corpus = found;
// The appended bubbles make it a corpus `npm run bench` must not reuse.
forgetBenchCorpus(corpusDir);
const globalPath = join(corpus.userDir, 'globalStorage', 'state.vscdb');
const globalDb = new Database(globalPath);
globalDb.pragma(`journal_mode = ${journalMode}`);
globalDb.close();
const thisRoot = fileURLToPath(new URL('../..', import.meta.url));
const builds: [string, string][] = [['this build', thisRoot]];
if (strings.baseline !== undefined) builds.unshift(['baseline', resolve(strings.baseline)]);

// Not beside the corpus: two runs on one corpus (or two users of it) would share warehouses.
const workDir =
  strings.work === undefined ? mkdtempSync(join(tmpdir(), 'etl-one-bubble-')) : resolve(strings.work);
mkdirSync(workDir, { recursive: true });
if (strings.work === undefined) process.on('exit', () => rmSync(workDir, { recursive: true, force: true }));
const warehouse = (index: number): string => join(workDir, `one-bubble-ab-${index}.duckdb`);
function run(index: number, extra: readonly string[]): Sample {
  const [, root] = builds[index]!;
  const sample = measureProcess(join(root, 'bin', 'etl'), [
    'run',
    '--cursor-user-dir',
    corpus.userDir,
    '--cursor-store-root',
    corpus.storeRoot,
    '--target',
    `duckdb:${warehouse(index)}`,
    '--json',
    ...extra,
  ]);
  if (sample.exitCode !== 0) throw new Error(`${builds[index]![0]} failed: ${sample.stderr.trim()}`);
  return sample;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
// The full load into a fresh warehouse, `--full-runs` times per build, alternating; its median.
const fullSamples: Sample[][] = builds.map(() => []);
for (let r = 0; r < ints['full-runs']; r++) {
  for (const index of builds.keys()) {
    rmSync(warehouse(index), { force: true });
    rmSync(`${warehouse(index)}.wal`, { force: true });
    fullSamples[index]!.push(run(index, []));
  }
}
const full = fullSamples.map((list) => ({
  wallMs: median(list.map((s) => s.wallMs)),
  cpuMs: median(list.map((s) => s.cpuMs)),
}));
for (const index of builds.keys()) run(index, ['--since-last']);
const session = oneBubbleSession(corpus);
const samples: Sample[][] = builds.map(() => []);
const waits: number[][] = builds.map(() => []);
const probeOut = join(workDir, 'writer-probe.json');
async function incremental(index: number): Promise<void> {
  if (ints['writer-probe'] === 0) {
    samples[index]!.push(run(index, ['--since-last']));
    return;
  }
  const probeScript = fileURLToPath(new URL('./writer-probe.js', import.meta.url));
  const probe = spawn(process.execPath, [probeScript, globalPath, probeOut], { stdio: 'inherit' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  samples[index]!.push(run(index, ['--since-last']));
  const exited = once(probe, 'exit');
  probe.kill('SIGTERM');
  await exited;
  waits[index]!.push((JSON.parse(readFileSync(probeOut, 'utf8')) as { maxMs: number }).maxMs);
}
for (let r = 0; r < ints.runs; r++) {
  appendBubble(corpus.userDir, session.id, ints.seed + 2000 + r);
  const order = builds.map((_, index) => index);
  if (r % 2 === 1) order.reverse();
  for (const index of order) await incremental(index);
}
const seconds = (ms: number): string => (ms / 1000).toFixed(2);
builds.forEach(([name], index) => {
  const wall = median(samples[index]!.map((s) => s.wallMs));
  const cpu = median(samples[index]!.map((s) => s.cpuMs));
  const base = full[index]!;
  console.log(
    `${name}: ${journalMode}, full load (median of ${ints['full-runs']}) wall ${seconds(base.wallMs)} s, CPU ${seconds(base.cpuMs)} s; one bubble (median of ${ints.runs}) ` +
      `wall ${seconds(wall)} s = ${((100 * wall) / base.wallMs).toFixed(1)} %, CPU ${seconds(cpu)} s = ${((100 * cpu) / base.cpuMs).toFixed(1)} %` +
      (waits[index]!.length > 0
        ? `; longest writer wait per run ${waits[index]!.map((ms) => ms.toFixed(0)).join(', ')} ms`
        : ''),
  );
});
