/** Plain aligned text tables for human output; control characters from the data print visibly. */
import { visibleText } from './visible-text.js';

function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const line = visibleText(text.replace(/\s+/g, ' '));
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function render(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((c, i) => c.padEnd(widths[i] ?? 0))
    .join('  ')
    .trimEnd();
}

function cellsOf(columns: readonly string[], rows: readonly Record<string, unknown>[]): string[][] {
  return rows.map((row) => columns.map((c) => cellText(row[c])));
}

function headLines(
  columns: readonly string[],
  body: readonly string[][],
): { lines: string[]; widths: number[] } {
  const header = columns.map(visibleText);
  const widths = header.map((c, i) => Math.max(c.length, ...body.map((r) => r[i]!.length)));
  return {
    lines: [
      render(header, widths),
      render(
        widths.map((w) => '-'.repeat(w)),
        widths,
      ),
    ],
    widths,
  };
}

export function formatTable(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const body = cellsOf(columns, rows);
  const { lines, widths } = headLines(columns, body);
  return [...lines, ...body.map((r) => render(r, widths)), `(${rows.length} rows)`].join('\n');
}

/**
 * A table printed page by page: the first page sets the column widths (cells are at most 60
 * characters, so a later wider cell only shifts its own row).
 */
export class StreamedTable {
  private widths: number[] | null = null;
  private count = 0;

  constructor(private readonly columns: readonly string[]) {}

  /** The lines of one page, the header first on the first page; each line ends with a newline. */
  page(rows: readonly Record<string, unknown>[]): string {
    const body = cellsOf(this.columns, rows);
    const lines: string[] = [];
    if (this.widths === null) {
      const head = headLines(this.columns, body);
      this.widths = head.widths;
      lines.push(...head.lines);
    }
    const widths = this.widths;
    lines.push(...body.map((r) => render(r, widths)));
    this.count += rows.length;
    return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  }

  end(): string {
    return `(${this.count} rows)`;
  }
}
