/**
 * `npm run bench -- --shape NAME`: one corpus shape's per-stack matrix (Composer only, Store only,
 * both, and the merge's cost), the no-op and one-bubble `--since-last` cases, written to the
 * shape's own section of the doc so a regression in one shape cannot hide in another's total.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import {
  type BenchCorpus,
  type BenchCorpusOptions,
  forgetBenchCorpus,
} from '../fixtures/bench/bench-corpus.js';
import {
  type BenchEnv,
  type CaseResult,
  sinceLastNoop,
  sinceLastOneBubble,
  unavailableCase,
} from './bench-cases.js';
import { checksTable, median, resultsTable, type TargetCheck } from './bench-report.js';
import type { BenchShape } from './bench-shapes.js';
import { shapeMarkers, writeResultsSection } from './benchmarks-doc.js';
import { corpusSummary } from './corpus-summary.js';
import { stackChecks, stackMatrix, stackRows, stackTable, stackWarehouse } from './stack-matrix.js';

export interface ShapeRunContext {
  docPath: string;
  command: string;
  loadBefore: number[];
  log: (line: string) => void;
}

const SHAPE_CASES = { noop: 1, oneBubble: 2 } as const;
const MB = 1024 * 1024;
const pct = (v: number): string => `${(v * 100).toFixed(1)} %`;

function changeChecks(cases: readonly CaseResult[], fullWallMs: number, fullCpuMs: number): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const share = (c: CaseResult | undefined, limit: number, target: string): void => {
    if (!c || c.samples.length === 0) {
      checks.push({ target, measured: c?.unavailable ?? 'not measured', met: null });
      return;
    }
    const wall = median(c.samples.map((s) => s.wallMs)) / fullWallMs;
    const cpu = median(c.samples.map((s) => s.cpuMs)) / fullCpuMs;
    checks.push({ target, measured: `${pct(wall)} wall (CPU ${pct(cpu)})`, met: wall <= limit });
  };
  const noop = cases.find((c) => c.id === SHAPE_CASES.noop);
  share(noop, 0.01, 'no-op --since-last ≤ 1 % of the full load (both stacks)');
  const bytes = noop?.samples.map((s) => s.payloadBytes ?? -1) ?? [];
  checks.push({
    target: 'no-op --since-last reads zero payload bytes (every run)',
    measured: `${Math.max(...bytes)} bytes (max of ${bytes.length})`,
    met: bytes.length > 0 && Math.max(...bytes) === 0,
  });
  share(
    cases.find((c) => c.id === SHAPE_CASES.oneBubble),
    0.05,
    'one-session change (one bubble) ≤ 5 % of the full load',
  );
  return checks;
}

export function runShape(
  env: BenchEnv,
  shape: BenchShape,
  corpus: BenchCorpus,
  options: BenchCorpusOptions,
  ctx: ShapeRunContext,
): void {
  const rows = stackRows(stackMatrix(env, corpus));
  ctx.log('per-stack cases done');
  const warehouse = stackWarehouse(env);
  const cases: CaseResult[] = [sinceLastNoop(env, SHAPE_CASES.noop, corpus, warehouse)];
  const hasComposerOnly = corpus.plans.some((plan) => plan.kind === 'composer');
  if (hasComposerOnly) {
    forgetBenchCorpus(join(env.workDir, `corpus-${shape.name}`));
    cases.push(sinceLastOneBubble(env, SHAPE_CASES.oneBubble, corpus, warehouse, corpus.plans.length));
  } else
    cases.push(
      unavailableCase(
        SHAPE_CASES.oneBubble,
        '--since-last, one bubble appended',
        'n/a (no Composer-only session)',
      ),
    );
  const both = rows.find((r) => r.stack === 'both')!;
  const peak = Math.max(
    ...rows.map((r) => r.peakRssBytes),
    ...cases.flatMap((c) => c.samples.map((s) => s.maxRssBytes)),
  );
  const checks = [
    ...stackChecks(rows),
    ...changeChecks(cases, both.etlWallMs, both.etlCpuMs),
    {
      target: 'peak RSS ≤ 400 MB (every ETL run)',
      measured: `${(peak / MB).toFixed(0)} MB`,
      met: peak <= 400 * MB,
    },
  ];
  const fmtLoad = (l: number[]): string => l.map((v) => v.toFixed(2)).join(' / ');
  const section = [
    `### Shape \`${shape.name}\`: ${shape.description}`,
    '',
    ...corpusSummary('Corpus', corpus),
    `- Corpus options: \`${JSON.stringify(options)}\``,
    `- Median of ${env.runs} alternated run${env.runs === 1 ? '' : 's'}; load average before: ${fmtLoad(ctx.loadBefore)}, after: ${fmtLoad(loadavg())}; command: ${ctx.command}`,
    '',
    stackTable(rows),
    '',
    resultsTable(cases),
    '',
    checksTable(checks),
  ].join('\n');
  process.stdout.write(`${section}\n`);
  writeResultsSection(ctx.docPath, section, shapeMarkers(shape.name));
  ctx.log(`shape ${shape.name} written to ${ctx.docPath}`);
}
