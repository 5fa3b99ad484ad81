/**
 * Reads a user-supplied price table (docs/usage.md#price-table): CSV with a header row, or a JSON
 * array of objects, with the same member names. Every row is validated (zod); any invalid row
 * refuses the whole file, naming the row and field. Dates without a time mean UTC midnight.
 */
import { z } from 'zod';
import type { ModelPriceRow } from '../../../schemas/price-tables.js';
import { UsageError } from '../../shared/errors.js';
import { readInstant } from '../../shared/time/read-instant.js';

const PRICE_FIELDS = [
  'input_per_million',
  'output_per_million',
  'cache_read_per_million',
  'cache_write_per_million',
] as const;
const FIELDS = ['model', 'valid_from', 'currency', ...PRICE_FIELDS] as const;

const price = z.number().finite().nonnegative().nullable().default(null);
const rowSchema = z
  .object({
    model: z.string().trim().min(1),
    currency: z.string().regex(/^[A-Z]{3}$/, 'a three-letter upper-case currency code'),
    valid_from: z.string().min(1),
    input_per_million: price,
    output_per_million: price,
    cache_read_per_million: price,
    cache_write_per_million: price,
  })
  .strict();

function invalid(problem: string, row?: number, field?: string): UsageError<'PRICE_TABLE_INVALID'> {
  const where = row === undefined ? '' : ` (row ${row}${field === undefined ? '' : `, ${field}`})`;
  return new UsageError('PRICE_TABLE_INVALID', `The price table is invalid${where}: ${problem}`, {
    ...(row === undefined ? {} : { row }),
    ...(field === undefined ? {} : { field }),
    problem,
  });
}

function validFrom(value: string, row: number): number {
  const reading = readInstant(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (reading.kind !== 'instant') throw invalid('not a date or zoned ISO instant', row, 'valid_from');
  return reading.ms;
}

/** One CSV line split into cells; `"` quotes a cell and `""` is a quote inside it. */
function csvCells(line: string, row: number): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  if (quoted) throw invalid('unterminated quote', row);
  cells.push(cell);
  return cells.map((c) => c.trim());
}

function csvRecords(text: string): Record<string, unknown>[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length === 0) throw invalid('empty file');
  const header = csvCells(lines[0]!, 1);
  for (const name of header)
    if (!(FIELDS as readonly string[]).includes(name)) throw invalid(`unknown column "${name}"`, 1);
  return lines.slice(1).map((line, i) => {
    const cells = csvCells(line, i + 2);
    if (cells.length !== header.length) throw invalid('cell count differs from the header', i + 2);
    const record: Record<string, unknown> = {};
    header.forEach((name, c) => {
      const cell = cells[c]!;
      const isPrice = (PRICE_FIELDS as readonly string[]).includes(name);
      record[name] = isPrice ? (cell === '' ? null : /^\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell) : cell;
    });
    return record;
  });
}

function jsonRecords(text: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('not valid JSON');
  }
  if (!Array.isArray(value)) throw invalid('the JSON must be an array of price objects');
  return value;
}

/** Parses and validates the file text; rows come back ordered by model, then `valid_from`. */
export function parsePriceTable(text: string): ModelPriceRow[] {
  const trimmed = text.trimStart();
  const records = trimmed.startsWith('[') ? jsonRecords(trimmed) : csvRecords(text);
  const csv = !trimmed.startsWith('[');
  const rows = records.map((record, i) => {
    const row = csv ? i + 2 : i + 1;
    const parsed = rowSchema.safeParse(record);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw invalid(issue.message, row, issue.path.map(String).join('.') || undefined);
    }
    return { ...parsed.data, valid_from: validFrom(parsed.data.valid_from, row), row };
  });
  const seen = new Set<string>();
  for (const r of rows) {
    const key = `${r.model}\u0000${r.valid_from}`;
    if (seen.has(key)) throw invalid('a second price for the same model and valid_from', r.row, 'valid_from');
    seen.add(key);
  }
  return rows
    .map(({ row: _row, ...price }) => price)
    .sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : a.valid_from - b.valid_from));
}
