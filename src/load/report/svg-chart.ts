/**
 * The report's charts as inline SVG, drawn from numbers alone (no script, no library): columns for a
 * series over time, horizontal bars for a ranking. Every label is escaped; each mark carries its
 * value in `data-value` and a `<title>` tooltip.
 */
import { escapeHtml, formatCompact, formatCount } from './html-text.js';

export interface ChartPoint {
  label: string;
  value: number;
  /** Extra tooltip text after the value, e.g. "12 failed". */
  note?: string;
}

export interface ChartOptions {
  /** The chart's accessible name. */
  title: string;
  /** What a value counts, e.g. "messages". */
  unit: string;
}

const EMPTY = (title: string): string =>
  `<p class="chart-empty" role="note">${escapeHtml(title)}: no data in this warehouse.</p>`;

/** A round upper bound for the value axis (1, 2 or 5 times a power of ten). */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

const usable = (points: readonly ChartPoint[]): ChartPoint[] =>
  points.map((p) => ({ ...p, value: Number.isFinite(p.value) && p.value > 0 ? p.value : 0 }));

const tooltip = (p: ChartPoint, unit: string): string =>
  escapeHtml(`${p.label}: ${formatCount(p.value)} ${unit}${p.note === undefined ? '' : `, ${p.note}`}`);

const round = (n: number): string => (Math.round(n * 10) / 10).toString();

/** Columns over ordered buckets (days, weeks, months); at most about eight axis labels are written. */
export function columnChart(input: readonly ChartPoint[], options: ChartOptions): string {
  const points = usable(input);
  if (points.length === 0 || points.every((p) => p.value === 0)) return EMPTY(options.title);
  const width = 760;
  const height = 220;
  const left = 48;
  const bottom = 28;
  const top = 12;
  const plotWidth = width - left - 8;
  const plotHeight = height - top - bottom;
  const max = niceMax(Math.max(...points.map((p) => p.value)));
  const slot = plotWidth / points.length;
  const barWidth = Math.max(1, slot * 0.8);
  const labelEvery = Math.max(1, Math.ceil(points.length / 8));
  const parts: string[] = [];
  for (const fraction of [0, 0.5, 1]) {
    const y = top + plotHeight - fraction * plotHeight;
    parts.push(
      `<line class="grid" x1="${left}" x2="${width - 8}" y1="${round(y)}" y2="${round(y)}"/>`,
      `<text class="axis" x="${left - 6}" y="${round(y + 4)}" text-anchor="end">${formatCompact(max * fraction)}</text>`,
    );
  }
  points.forEach((p, i) => {
    const h = (p.value / max) * plotHeight;
    const x = left + i * slot + (slot - barWidth) / 2;
    parts.push(
      `<rect class="bar" data-value="${p.value}" x="${round(x)}" y="${round(top + plotHeight - h)}" width="${round(barWidth)}" height="${round(h)}"><title>${tooltip(p, options.unit)}</title></rect>`,
    );
    if (i % labelEvery === 0)
      parts.push(
        `<text class="axis" x="${round(left + i * slot + slot / 2)}" y="${height - 8}" text-anchor="middle">${escapeHtml(p.label)}</text>`,
      );
  });
  return `<svg class="chart column-chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(options.title)}">${parts.join('')}</svg>`;
}

/** One horizontal bar per item, in the given order, with the label on the left and the value on the right. */
export function barChart(input: readonly ChartPoint[], options: ChartOptions): string {
  const points = usable(input);
  if (points.length === 0 || points.every((p) => p.value === 0)) return EMPTY(options.title);
  const width = 760;
  const row = 22;
  const labelWidth = 300;
  const valueWidth = 90;
  const plotWidth = width - labelWidth - valueWidth;
  const max = Math.max(...points.map((p) => p.value));
  const parts = points.map((p, i) => {
    const y = i * row;
    const w = Math.max(p.value > 0 ? 1 : 0, (p.value / max) * plotWidth);
    const label = p.label.length > 48 ? `…${p.label.slice(-47)}` : p.label;
    return (
      `<text class="label" x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${escapeHtml(label)}</text>` +
      `<rect class="bar" data-value="${p.value}" x="${labelWidth}" y="${y + 3}" width="${round(w)}" height="${row - 6}"><title>${tooltip(p, options.unit)}</title></rect>` +
      `<text class="value" x="${round(labelWidth + w + 6)}" y="${y + 15}">${formatCount(p.value)}</text>`
    );
  });
  return `<svg class="chart bar-chart" viewBox="0 0 ${width} ${points.length * row}" role="img" aria-label="${escapeHtml(options.title)}">${parts.join('')}</svg>`;
}
