/** Plain aligned text tables for human output; control characters from the data print visibly. */
import { visibleText } from './visible-text.js';

export function formatTable(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const cell = (value: unknown): string => {
    if (value === null || value === undefined) return 'NULL';
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    const line = visibleText(text.replace(/\s+/g, ' '));
    return line.length > 60 ? `${line.slice(0, 59)}…` : line;
  };
  const header = columns.map(visibleText);
  const body = rows.map((row) => columns.map((c) => cell(row[c])));
  const widths = header.map((c, i) => Math.max(c.length, ...body.map((r) => r[i]!.length)));
  const render = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [
    render(header),
    render(widths.map((w) => '-'.repeat(w))),
    ...body.map(render),
    `(${rows.length} rows)`,
  ].join('\n');
}
