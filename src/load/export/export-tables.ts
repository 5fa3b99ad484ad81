/** Which warehouse tables an export may read, and the streaming SELECT for one of them. */
import { LEDGER_TABLES } from '../../../schemas/ledger-tables.js';
import type { ColumnSpec, TableDefinition } from '../../../schemas/table-definition.js';
import { ROW_TABLES } from '../../../schemas/tables.js';
import { UsageError } from '../../shared/errors.js';

export type AnyTable = TableDefinition<Record<string, ColumnSpec>>;

const EXPORTABLE = [...ROW_TABLES, ...LEDGER_TABLES] as unknown as AnyTable[];
export const DEFAULT_EXPORT_TABLES: readonly string[] = ROW_TABLES.map((t) => t.name);

export function resolveExportTables(names: readonly string[] | undefined): AnyTable[] {
  const wanted = names === undefined || names.length === 0 ? DEFAULT_EXPORT_TABLES : names;
  return [...new Set(wanted)].map((name) => {
    const table = EXPORTABLE.find((t) => t.name === name);
    if (!table) {
      throw new UsageError('EXPORT_TABLE_UNKNOWN', 'Unknown table for --tables', {
        table: name,
        known: EXPORTABLE.map((t) => t.name),
      });
    }
    return table;
  });
}

/** Stable row order per table so exports of identical warehouses are identical. */
const ORDER: Record<string, string> = {
  sessions: 'session_id',
  messages: 'session_id, ordinal',
  tool_calls: 'session_id, message_id, tool_ordinal',
  source_instances: 'session_id, instance_ordinal',
  row_provenance: 'session_id, row_kind, row_id, instance_ordinal, locator',
  file_edits: 'session_id, message_id, edit_ordinal',
  usage: 'session_id, usage_ordinal',
  diagnostics: 'run_id, seq',
  etl_session_changes: 'change_seq',
  etl_consumers: 'consumer',
};

export function orderByFor(table: AnyTable): string {
  return ORDER[table.name] ?? table.columnNames.join(', ');
}

/**
 * `where` is a filter already parsed and rendered by export-filter.ts, never user text.
 * `timestamps: 'epoch-ms'` selects TIMESTAMP columns as epoch milliseconds (for Arrow builders).
 */
export function exportSelect(
  table: AnyTable,
  where: string | undefined,
  timestamps: 'native' | 'epoch-ms',
): string {
  const columns = Object.entries(table.columns)
    .map(([name, spec]) =>
      spec.kind === 'timestamp' && timestamps === 'epoch-ms' ? `epoch_ms(${name}) AS ${name}` : name,
    )
    .join(', ');
  const filter = where === undefined ? '' : ` WHERE (${where})`;
  return `SELECT ${columns} FROM ${table.name}${filter} ORDER BY ${orderByFor(table)}`;
}
