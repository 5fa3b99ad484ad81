/**
 * `npm run bench [-- --scale K --runs R --work DIR --doc FILE --cpu-prof-dir DIR, corpus flags]`:
 * builds the corpora, runs every case `runs` times and writes the medians and target checks to the
 * doc; `--shape NAME` runs that shape's own matrix into its own section.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type BenchCorpus,
  type BenchCorpusOptions,
  buildBenchCorpus,
  existingBenchCorpus,
  forgetBenchCorpus,
} from '../fixtures/bench/bench-corpus.js';
import { CORPUS_FLAGS, corpusOptions, parseIntFlags } from './bench-args.js';
import {
  type BenchEnv,
  type CaseResult,
  fullDuckDb,
  fullDuckDbBesideFloor,
  fullParquet,
  sinceLastNoop,
  sinceLastOneBubble,
  sinceLastTranscript,
} from './bench-cases.js';
import { CASE_IDS, checksTable, resultsTable, targetChecks } from './bench-report.js';
import { writeResultsSection } from './benchmarks-doc.js';
import { corpusSummary } from './corpus-summary.js';
import { mergeCases, mergeChecks } from './merge-cases.js';
import { runShape } from './shape-suite.js';
import { stackChecks, stackMatrix, stackRows, stackTable } from './stack-matrix.js';

const { ints, strings } = parseIntFlags(process.argv.slice(2), { scale: 1, runs: 3 }, [
  'work',
  'doc',
  'cpu-prof-dir',
  ...CORPUS_FLAGS,
]);
const { shape, options: baseOptions } = corpusOptions(strings);
const workDir = resolve(strings.work ?? '.bench/run');
const docPath = resolve(strings.doc ?? 'docs/benchmarks.md');
const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const env: BenchEnv = {
  cli: here('../../bin/etl'),
  floor: here('./raw-floor.js'),
  workDir,
  runs: Math.max(1, ints.runs),
  nodeFlags: strings['cpu-prof-dir']
    ? ['--cpu-prof', `--cpu-prof-dir="${resolve(strings['cpu-prof-dir'])}"`]
    : [],
};
const log = (line: string): void => void process.stderr.write(`bench: ${line}\n`);

function corpus(name: string, sessions: number, pristine: boolean, agentKvShare = 0): BenchCorpus {
  const options: BenchCorpusOptions = {
    ...baseOptions,
    sessions,
    ...(agentKvShare > 0 ? { agentKvShare } : {}),
  };
  const dir = join(workDir, name);
  const reused = pristine ? existingBenchCorpus(dir, options) : null;
  if (reused) return reused;
  log(`building ${name} corpus: ${sessions} sessions × ~${options.messages} messages`);
  return buildBenchCorpus(dir, options);
}

const loadBefore = loadavg();
const sessions = baseOptions.sessions * Math.max(1, ints.scale);
const command = `\`npm run bench -- ${process.argv.slice(2).join(' ')}\``.replace(/ `$/, '`');
if (strings.shape !== undefined) {
  const shaped = corpus(`corpus-${shape.name}`, sessions, true);
  runShape(env, shape, shaped, { ...baseOptions, sessions }, { docPath, command, loadBefore, log });
  process.exit(0);
}
const one = corpus('corpus-1x', sessions, true);
const warehouse = join(workDir, 'warehouse.duckdb');
const cases: CaseResult[] = [];
const step = (result: CaseResult): void => {
  cases.push(result);
  log(`case ${result.id} done: ${result.name}`);
};
const besideFloor = fullDuckDbBesideFloor(
  env,
  { full: CASE_IDS.fullDuckDb, floor: CASE_IDS.floor, redacted: CASE_IDS.fullRedacted },
  one,
  warehouse,
);
for (const result of besideFloor) step(result);
const stacks = stackRows(
  stackMatrix(env, one, { etl: besideFloor[0].samples, floor: besideFloor[1].samples }),
);
log('per-stack cases done');
step(fullParquet(env, CASE_IDS.fullParquet, one));
for (const result of mergeCases(env, warehouse)) step(result);
step(sinceLastNoop(env, CASE_IDS.noop, one, warehouse));
forgetBenchCorpus(join(workDir, 'corpus-1x'));
step(sinceLastOneBubble(env, CASE_IDS.oneBubble, one, warehouse, baseOptions.seed));
step(sinceLastTranscript(env, CASE_IDS.transcript, one, warehouse, baseOptions.seed));
const five = corpus('corpus-5x', sessions * 5, true);
step(fullDuckDb(env, CASE_IDS.fullFiveX, five, join(workDir, 'warehouse-5x.duckdb')));
// Every Composer session of this corpus also keeps its messages as agentKv blobs (a 2026 global DB).
const heavy = corpus('corpus-agentkv', sessions, true, 1);
const heavyWarehouse = join(workDir, 'warehouse-agentkv.duckdb');
const heavyFull = fullDuckDb(env, CASE_IDS.agentKvFull, heavy, heavyWarehouse);
step({ ...heavyFull, name: `agentKv-heavy ${heavyFull.name}` });
const heavyNoop = sinceLastNoop(env, CASE_IDS.agentKvNoop, heavy, heavyWarehouse);
step({ ...heavyNoop, name: `agentKv-heavy ${heavyNoop.name}` });
cases.sort((a, b) => a.id - b.id);

const floorOutput = JSON.parse(cases.find((c) => c.id === CASE_IDS.floor)!.samples[0]!.stdout) as {
  duckdbVersion: string;
};
const cpu = cpus();
const loadAfter = loadavg();
const fmtLoad = (l: number[]): string => l.map((v) => v.toFixed(2)).join(' / ');
const table = resultsTable(cases);
const checks = checksTable([...targetChecks(cases), ...stackChecks(stacks), ...mergeChecks(cases)]);
const section = [
  `## Results (median of ${env.runs} run${env.runs === 1 ? '' : 's'})`,
  '',
  `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown'}), ${(totalmem() / 1024 ** 3).toFixed(1)} GB memory`,
  `- Node ${process.version}, DuckDB ${floorOutput.duckdbVersion}`,
  `- Load average (1/5/15 min) before: ${fmtLoad(loadBefore)}; after: ${fmtLoad(loadAfter)}`,
  ...corpusSummary('Corpus 1×', one),
  ...corpusSummary('Corpus 5×', five),
  ...corpusSummary('Corpus agentKv-heavy (every Composer session also as agentKv blobs)', heavy),
  `- Corpus options ${JSON.stringify(baseOptions)}; ratios are judged on wall time (CPU time beside; wall figures need an idle machine, see the load average); command: ${command}`,
  '',
  table,
  '',
  '### Per stack (full load beside the raw floor on the same roots)',
  '',
  stackTable(stacks),
  '',
  '### Targets',
  '',
  checks,
].join('\n');
process.stdout.write(`${table}\n\n${stackTable(stacks)}\n\n${checks}\n`);
writeResultsSection(docPath, section);
log(`results written to ${docPath}`);
