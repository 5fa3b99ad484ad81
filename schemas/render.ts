/** Renders the generated artifacts (DDL, JSON Schema, column docs) from the table definitions. */
import { z } from 'zod';
import { DOCTOR_REPORT } from './doctor-report.js';
import { LEDGER_TABLES } from './ledger-tables.js';
import { escapeCell } from './markdown-cell.js';
import { PRICE_TABLES } from './price-tables.js';
import { renderDiagnosticsDoc } from './render-diagnostics.js';
import { rowSchemaOf } from './row-schema.js';
import { type ColumnSpec, createTableSql, duckDbType, type TableDefinition } from './table-definition.js';
import { ROW_TABLES } from './tables.js';

type AnyTable = TableDefinition<Record<string, ColumnSpec>>;
const tables = [...ROW_TABLES, ...LEDGER_TABLES, ...PRICE_TABLES] as unknown as AnyTable[];

export function renderDuckDbDdl(): string {
  const header = '-- Generated from schemas/tables.ts by `npm run schemas:generate`. Do not edit.\n';
  return `${header}\n${tables.map((t) => createTableSql(t)).join('\n\n')}\n`;
}

export function renderJsonSchema(): string {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'cursor-etl normalized rows',
    description: 'Generated from schemas/tables.ts. Do not edit.',
    $defs: Object.fromEntries(tables.map((t) => [t.name, z.toJSONSchema(rowSchemaOf(t))])),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

export function renderSchemaDoc(): string {
  const parts = [
    '# Warehouse schema',
    '',
    'Generated from `schemas/tables.ts` (the single source of the zod row schemas, the DuckDB DDL in',
    '`schemas/generated/duckdb.sql` and the JSON Schema in `schemas/generated/rows.schema.json`). Do not edit',
    'by hand: run `npm run schemas:generate`. Timestamps are UTC; `JSON` columns hold canonical JSON text.',
    '',
  ];
  for (const table of tables) {
    parts.push(
      `## \`${table.name}\``,
      '',
      table.description,
      '',
      '| column | type | null | meaning / allowed values |',
    );
    parts.push('| --- | --- | --- | --- |');
    for (const [name, spec] of Object.entries(table.columns)) {
      const allowed = spec.values ? ` Allowed: ${spec.values.map((v) => `\`${v}\``).join(', ')}.` : '';
      parts.push(
        `| \`${name}\` | ${duckDbType(spec)} | ${spec.nullable ? 'yes' : 'no'} | ${escapeCell(spec.description + allowed)} |`,
      );
    }
    parts.push('');
  }
  return `${parts.join('\n')}\n`;
}

export function renderDoctorSchema(): string {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'etl doctor --json',
    description: 'Generated from schemas/doctor-report.ts. Do not edit. The CLI adds a diagnostics array.',
    ...z.toJSONSchema(DOCTOR_REPORT),
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

export const GENERATED_FILES: ReadonlyArray<readonly [string, () => string]> = [
  ['schemas/generated/duckdb.sql', renderDuckDbDdl],
  ['schemas/generated/rows.schema.json', renderJsonSchema],
  ['schemas/generated/doctor.schema.json', renderDoctorSchema],
  ['docs/schema.md', renderSchemaDoc],
  ['docs/diagnostics.md', renderDiagnosticsDoc],
];
