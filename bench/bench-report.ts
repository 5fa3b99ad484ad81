/** Medians, the results table and the target checks of one benchmark run. */
import type { CaseResult } from './bench-cases.js';
import type { Sample } from './measure-process.js';

export const CASE_IDS = {
  fullDuckDb: 1,
  fullParquet: 2,
  noop: 3,
  oneBubble: 4,
  transcript: 5,
  fullFiveX: 6,
  floor: 7,
  fullRedacted: 8,
  agentKvFull: 9,
  agentKvNoop: 10,
} as const;

const MB = 1024 * 1024;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface CaseMedians {
  wallMs: number;
  cpuMs: number;
  maxRssBytes: number;
  payloadBytes: number | null;
}

export function medians(samples: readonly Sample[]): CaseMedians | null {
  if (samples.length === 0) return null;
  const payloads = samples.map((s) => s.payloadBytes).filter((p): p is number => p !== null);
  return {
    wallMs: median(samples.map((s) => s.wallMs)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    maxRssBytes: median(samples.map((s) => s.maxRssBytes)),
    payloadBytes: payloads.length === samples.length ? median(payloads) : null,
  };
}

export function resultsTable(cases: readonly CaseResult[]): string {
  const header =
    '| # | case | wall s | CPU s | peak RSS MB | messages/s | source MB/s | payload bytes read |';
  const rule = '| -: | --- | -: | -: | -: | -: | -: | -: |';
  const rows = cases.map((c) => {
    const m = medians(c.samples);
    if (m === null) return `| ${c.id} | ${c.name} | ${c.unavailable ?? 'not run'} | | | | | |`;
    const seconds = m.wallMs / 1000;
    const rate = (amount: number): string => (c.wholeCorpus ? (amount / seconds).toFixed(0) : '–');
    return [
      '',
      ` ${c.id} `,
      ` ${c.name} `,
      ` ${seconds.toFixed(2)} `,
      ` ${(m.cpuMs / 1000).toFixed(2)} `,
      ` ${(m.maxRssBytes / MB).toFixed(0)} `,
      ` ${rate(c.corpus?.stats.messages ?? 0)} `,
      ` ${c.wholeCorpus ? ((c.corpus?.stats.sourceBytes ?? 0) / MB / seconds).toFixed(1) : '–'} `,
      ` ${m.payloadBytes === null ? 'n/a' : Math.round(m.payloadBytes)} `,
      '',
    ].join('|');
  });
  return [header, rule, ...rows].join('\n');
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean | null;
}

function byId(cases: readonly CaseResult[], id: number): CaseMedians | null {
  return medians(cases.find((c) => c.id === id)?.samples ?? []);
}

const pct = (value: number): string => `${(value * 100).toFixed(1)} %`;

/**
 * Wall-time ratio `a / b` (the judged figure: the targets speak of time, and a run may use both cores)
 * and the CPU-time ratio beside it; the figures are meaningful only on an otherwise idle machine.
 */
function ratios(a: CaseMedians | null, b: CaseMedians | null): { cpu: number; wall: number } | null {
  return a && b ? { cpu: a.cpuMs / b.cpuMs, wall: a.wallMs / b.wallMs } : null;
}

export function targetChecks(cases: readonly CaseResult[]): TargetCheck[] {
  const full = byId(cases, CASE_IDS.fullDuckDb);
  const floor = byId(cases, CASE_IDS.floor);
  const noop = byId(cases, CASE_IDS.noop);
  const big = byId(cases, CASE_IDS.fullFiveX);
  const checks: TargetCheck[] = [];
  const add = (target: string, measured: string | null, met: boolean | null): void => {
    checks.push({ target, measured: measured ?? 'not measured', met: measured === null ? null : met });
  };
  const addRatio = (
    target: string,
    r: { cpu: number; wall: number } | null,
    limit: number,
    show: (v: number) => string,
  ): void =>
    add(target, r === null ? null : `${show(r.wall)} wall (CPU ${show(r.cpu)})`, (r?.wall ?? 0) <= limit);
  const times = (v: number): string => `${v.toFixed(2)}×`;
  addRatio('full load ≤ 2× raw floor', ratios(full, floor), 2, times);
  addRatio('no-op --since-last ≤ 1 % of full load', ratios(noop, full), 0.01, pct);
  // Every run must read nothing, not just the median one (a first no-op run may differ from later ones).
  const addZeroRead = (target: string, id: number): void => {
    const bytes = cases.find((c) => c.id === id)?.samples.map((s) => s.payloadBytes) ?? [];
    const max = bytes.some((b) => b === null) ? null : Math.max(...(bytes as number[]));
    add(target, bytes.length === 0 ? null : `${max ?? 'n/a'} bytes (max of ${bytes.length})`, max === 0);
  };
  addZeroRead('no-op --since-last reads zero payload bytes (every run)', CASE_IDS.noop);
  addZeroRead('agentKv-heavy no-op --since-last reads zero payload bytes (every run)', CASE_IDS.agentKvNoop);
  addRatio(
    'one-session change (one bubble) ≤ 5 % of full load',
    ratios(byId(cases, CASE_IDS.oneBubble), full),
    0.05,
    pct,
  );
  addRatio(
    'one-session change (transcript grew) ≤ 5 % of full load',
    ratios(byId(cases, CASE_IDS.transcript), full),
    0.05,
    pct,
  );
  addRatio(
    'redacted full load ≤ 1.15× full load',
    ratios(byId(cases, CASE_IDS.fullRedacted), full),
    1.15,
    times,
  );
  const etl = cases.filter((c) => c.id !== CASE_IDS.floor && c.samples.length > 0);
  const peak = Math.max(0, ...etl.map((c) => medians(c.samples)!.maxRssBytes));
  add(
    'peak RSS ≤ 400 MB (every ETL case)',
    etl.length > 0 ? `${(peak / MB).toFixed(0)} MB` : null,
    peak <= 400 * MB,
  );
  const growth = full && big ? big.maxRssBytes / full.maxRssBytes - 1 : null;
  add(
    'peak RSS within 20 % between 1× and 5×',
    growth === null ? null : `${growth >= 0 ? '+' : ''}${pct(growth)}`,
    Math.abs(growth ?? 0) <= 0.2,
  );
  return checks;
}

export function checksTable(checks: readonly TargetCheck[]): string {
  const rows = checks.map(
    (c) => `| ${c.target} | ${c.measured} | ${c.met === null ? '–' : c.met ? 'met' : '**missed**'} |`,
  );
  return ['| target | measured | result |', '| --- | --- | --- |', ...rows].join('\n');
}
