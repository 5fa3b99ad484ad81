/**
 * `npm run bench [-- --scale K --runs R --sessions N --messages M --seed S --store-share F --work
 * DIR --doc FILE --cpu-prof-dir DIR]`: builds the corpora (N×K sessions and 5× that), runs every
 * case `runs` times, and writes the median table and target checks to the doc.
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
import { DEFAULT_STORE_SHARE, parseIntFlags, parseShare } from './bench-args.js';
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

const { ints, strings } = parseIntFlags(
  process.argv.slice(2),
  { scale: 1, runs: 3, sessions: 2000, messages: 100, seed: 1 },
  ['work', 'doc', 'cpu-prof-dir', 'store-share', 'agentkv-share'],
);
const storeShare = parseShare('store-share', strings['store-share'], DEFAULT_STORE_SHARE);
const agentKvShare = parseShare('agentkv-share', strings['agentkv-share'], 0);
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

function corpus(name: string, sessions: number, pristine: boolean): BenchCorpus {
  const options: BenchCorpusOptions = {
    sessions,
    messages: ints.messages,
    seed: ints.seed,
    storeShare,
    ...(agentKvShare > 0 ? { agentKvShare } : {}),
  };
  const dir = join(workDir, name);
  const reused = pristine ? existingBenchCorpus(dir, options) : null;
  if (reused) return reused;
  log(`building ${name} corpus: ${sessions} sessions × ~${ints.messages} messages`);
  return buildBenchCorpus(dir, options);
}

const loadBefore = loadavg();
const sessions = ints.sessions * Math.max(1, ints.scale);
const one = corpus('corpus-1x', sessions, true);
const warehouse = join(workDir, 'warehouse.duckdb');
const cases: CaseResult[] = [];
const step = (result: CaseResult): void => {
  cases.push(result);
  log(`case ${result.id} done: ${result.name}`);
};
for (const result of fullDuckDbBesideFloor(
  env,
  { full: CASE_IDS.fullDuckDb, floor: CASE_IDS.floor, redacted: CASE_IDS.fullRedacted },
  one,
  warehouse,
))
  step(result);
step(fullParquet(env, CASE_IDS.fullParquet, one));
for (const result of mergeCases(env, warehouse)) step(result);
step(sinceLastNoop(env, CASE_IDS.noop, one, warehouse));
forgetBenchCorpus(join(workDir, 'corpus-1x'));
step(sinceLastOneBubble(env, CASE_IDS.oneBubble, one, warehouse, ints.seed));
step(sinceLastTranscript(env, CASE_IDS.transcript, one, warehouse, ints.seed));
const five = corpus('corpus-5x', sessions * 5, true);
step(fullDuckDb(env, CASE_IDS.fullFiveX, five, join(workDir, 'warehouse-5x.duckdb')));
cases.sort((a, b) => a.id - b.id);

const floorOutput = JSON.parse(cases.find((c) => c.id === CASE_IDS.floor)!.samples[0]!.stdout) as {
  duckdbVersion: string;
};
const cpu = cpus();
const loadAfter = loadavg();
const fmtLoad = (l: number[]): string => l.map((v) => v.toFixed(2)).join(' / ');
const table = resultsTable(cases);
const checks = checksTable([...targetChecks(cases), ...mergeChecks(cases)]);
const section = [
  `## Results (median of ${env.runs} run${env.runs === 1 ? '' : 's'})`,
  '',
  `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown'}), ${(totalmem() / 1024 ** 3).toFixed(1)} GB memory`,
  `- Node ${process.version}, DuckDB ${floorOutput.duckdbVersion}`,
  `- Load average (1/5/15 min) before: ${fmtLoad(loadBefore)}; after: ${fmtLoad(loadAfter)}`,
  ...corpusSummary('Corpus 1×', one),
  ...corpusSummary('Corpus 5×', five),
  `- Seed ${ints.seed}, Store share ${storeShare}; ratios are judged on wall time (CPU time beside; wall figures need an idle machine, see the load average); command: \`npm run bench -- ${process.argv.slice(2).join(' ')}\``.replace(
    / `$/,
    '`',
  ),
  '',
  table,
  '',
  '### Targets',
  '',
  checks,
].join('\n');
process.stdout.write(`${table}\n\n${checks}\n`);
writeResultsSection(docPath, section);
log(`results written to ${docPath}`);
