/**
 * Renders docs/diagnostics.md from the diagnostic catalogue (`src/shared/diagnostic-catalogue.ts`,
 * its entries kept by area in `src/shared/diagnostics/`), one row a code in alphabetical order.
 */
import { z } from 'zod';
import { CATALOGUE, type CatalogueEntry } from '../src/shared/diagnostic-catalogue.js';
import { EXIT } from '../src/shared/errors.js';
import { escapeCell } from './markdown-cell.js';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  additionalProperties?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

const EXIT_NAMES: Record<keyof typeof EXIT, string> = {
  ok: 'ok',
  general: 'general',
  usage: 'usage',
  notFound: 'not found',
  io: 'I/O',
  integrity: 'integrity',
};

function typeOf(schema: JsonSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' \\| ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' \\| ');
  if (schema.items) return `${typeOf(schema.items)}[]`;
  if (schema.additionalProperties) return `{ [key]: ${typeOf(schema.additionalProperties)} }`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'unknown'];
  return types.join(' \\| ');
}

/** Word by word, so `AGENTKV_BLOB_HASH_MISMATCH` comes before `AGENTKV_BLOBS_UNLINKED`. */
export function byCode(a: string, b: string): number {
  const [x, y] = [a.replaceAll('_', ' '), b.replaceAll('_', ' ')];
  return x < y ? -1 : x > y ? 1 : 0;
}

function detailsOf(entry: CatalogueEntry): string {
  const schema = z.toJSONSchema(entry.details(z), { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(
    ([name, field]) => `\`${name}${required.has(name) ? '' : '?'}\`: ${typeOf(field)}`,
  );
  return fields.length > 0 ? fields.join('<br>') : '—';
}

export function renderDiagnosticsDoc(): string {
  const lines = [
    '# Diagnostics and error codes',
    '',
    'Generated from `src/shared/diagnostic-catalogue.ts`; do not edit by hand: run `npm run schemas:generate`.',
    '',
    'A **diagnostic** is a problem recorded as data: the run goes on, and the problem is printed in the',
    "run's JSON envelope and stored in the `diagnostics` table with its severity. An **error** ends the",
    'command with its exit category (0 ok, 1 general, 2 usage, 3 not found, 4 I/O, 5 integrity); with',
    '`--json` it is printed as `{ "error": { code, message, details } }` on stderr. Some codes are both',
    '(a partial result when another safe source remains, fatal when none does). Details never hold',
    'message content, physical paths or secrets; a `?` marks a field that is not always present.',
    '',
    'Set `CURSOR_ETL_DEBUG=1` to print, after a fatal error, the stack of the original error (and of',
    'its causes) that an error report needs; it is never printed otherwise.',
    '',
    '| Code | Severity | Exit | Meaning | Remedy | Details |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  const entries = (Object.entries(CATALOGUE) as [string, CatalogueEntry][]).sort(([a], [b]) => byCode(a, b));
  for (const [code, entry] of entries) {
    const severity = entry.severity.length > 0 ? entry.severity.join(', ') : '—';
    const exit = entry.exit === null ? '—' : `${EXIT[entry.exit]} (${EXIT_NAMES[entry.exit]})`;
    lines.push(
      `| \`${code}\` | ${severity} | ${exit} | ${escapeCell(entry.meaning)} | ${escapeCell(entry.remedy)} | ${detailsOf(entry)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
