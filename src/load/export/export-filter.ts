/**
 * `etl export --where`: one boolean expression over the exported table's columns. DuckDB parses
 * `SELECT <where>`; anything but one plain expression is refused, and what runs is DuckDB's own
 * rendering of the parsed expression, so no filter text can close or extend the statement.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DetailsOf } from '../../shared/diagnostic-catalogue.js';
import { UsageError } from '../../shared/errors.js';
import type { AnyTable } from './export-tables.js';

type Reason = DetailsOf<'EXPORT_WHERE_INVALID'>['reason'];

function invalid(reason: Reason, table?: string): UsageError<'EXPORT_WHERE_INVALID'> {
  return new UsageError(
    'EXPORT_WHERE_INVALID',
    `--where must be one boolean expression over the exported table's columns (${reason})`,
    { reason, ...(table === undefined ? {} : { table }) },
  );
}

/** A `;` outside string literals and quoted identifiers: a second statement, even an empty one. */
function hasSemicolon(text: string): boolean {
  let quote: string | null = null;
  for (const char of text) {
    if (quote !== null) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === ';') return true;
  }
  return false;
}

type Node = { [key: string]: unknown };

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** The one expression of a `SELECT <expression>` with no FROM, clause, modifier or alias. */
function soleExpression(parsed: Node): Node {
  if (parsed.error !== false) throw invalid('syntax');
  const statements = parsed.statements as Node[];
  if (statements.length !== 1) throw invalid('not-one-expression');
  const node = statements[0]!.node as Node;
  const list = node.select_list as Node[] | undefined;
  const from = node.from_table as Node | undefined;
  const plain =
    node.type === 'SELECT_NODE' &&
    list?.length === 1 &&
    from?.type === 'EMPTY' &&
    (node.modifiers as unknown[]).length === 0 &&
    ((node.cte_map as Node).map as unknown[]).length === 0 &&
    node.where_clause === null &&
    (node.group_expressions as unknown[]).length === 0 &&
    node.having === null &&
    node.qualify === null &&
    node.sample === null;
  if (!plain) throw invalid('not-one-expression');
  if (list[0]!.alias !== '') throw invalid('not-one-expression');
  return list[0]!;
}

/** Every column reference of the expression; refuses what may read beyond the row. */
function columnRefs(node: unknown, refs: string[][] = []): string[][] {
  if (Array.isArray(node)) {
    for (const item of node) columnRefs(item, refs);
    return refs;
  }
  if (!isNode(node)) return refs;
  if (node.class === 'SUBQUERY') throw invalid('subquery');
  if (node.class === 'STAR') throw invalid('star');
  if (node.class === 'PARAMETER') throw invalid('parameter');
  if (node.class === 'COLUMN_REF') refs.push((node.column_names as string[]).map((n) => n.toLowerCase()));
  for (const value of Object.values(node)) columnRefs(value, refs);
  return refs;
}

export interface ExportFilter {
  /** The filter's SQL for `table`; refuses a filter naming a column the table lacks. */
  forTable(table: AnyTable): string | undefined;
}

export async function parseExportFilter(
  connection: DuckDBConnection,
  where: string | undefined,
): Promise<ExportFilter> {
  if (where === undefined) return { forTable: () => undefined };
  if (hasSemicolon(where)) throw invalid('semicolon');
  const sql = `SELECT ${where}`;
  const reader = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql]);
  const expression = soleExpression(JSON.parse(String(reader.getRows()[0]![0])) as Node);
  const refs = columnRefs(expression);
  const rendered = await connection.runAndReadAll(
    'SELECT json_deserialize_sql(json_serialize_sql($1::VARCHAR))',
    [sql],
  );
  const text = String(rendered.getRows()[0]![0]);
  if (!text.startsWith('SELECT ')) throw invalid('not-one-expression');
  const expressionSql = `(${text.slice('SELECT '.length)})`;
  return {
    forTable(table) {
      for (const ref of refs) {
        const [first, second] = ref;
        const column = ref.length === 1 ? first! : second!;
        if (ref.length > 2 || (ref.length === 2 && first !== table.name))
          throw invalid('other-table', table.name);
        if (!table.columnNames.includes(column)) throw invalid('unknown-column', table.name);
      }
      return expressionSql;
    },
  };
}
