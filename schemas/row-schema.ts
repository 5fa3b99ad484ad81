/** The zod row schema of a table definition (for the JSON Schema artifact and row validation). */
import { z } from 'zod';
import type { ColumnSpec, TableDefinition } from './table-definition.js';

function zodFor(spec: ColumnSpec): z.ZodType {
  let base: z.ZodType;
  if (spec.values) base = z.enum(spec.values as [string, ...string[]]);
  else if (spec.kind === 'text' || spec.kind === 'json') base = z.string();
  else if (spec.kind === 'bool') base = z.boolean();
  else if (spec.kind === 'double') base = z.number();
  else base = z.number().int();
  base = base.describe(spec.description);
  return spec.nullable ? base.nullable() : base;
}

export function rowSchemaOf<C extends Record<string, ColumnSpec>>(table: TableDefinition<C>): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, spec] of Object.entries(table.columns)) shape[key] = zodFor(spec);
  return z.object(shape).strict().describe(table.description);
}
