/** Appends normalized rows through the DuckDB appender, typed by the table definition (no INSERT loops). */
import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import type { ColumnSpec, TableDefinition } from '../../../schemas/table-definition.js';
import { DuckDBTimestampValue } from './duckdb-api.js';

export function appendRows<C extends Record<string, ColumnSpec>>(
  appender: DuckDBAppender,
  table: TableDefinition<C>,
  rows: readonly Record<string, unknown>[],
): void {
  const columns = Object.entries(table.columns);
  for (const row of rows) {
    for (const [name, spec] of columns) {
      const value = row[name];
      if (value === null || value === undefined) {
        appender.appendNull();
        continue;
      }
      switch (spec.kind) {
        case 'text':
        case 'json':
          appender.appendVarchar(value as string);
          break;
        case 'int':
          appender.appendInteger(value as number);
          break;
        case 'bigint':
          appender.appendBigInt(BigInt(value as number));
          break;
        case 'double':
          appender.appendDouble(value as number);
          break;
        case 'bool':
          appender.appendBoolean(value as boolean);
          break;
        case 'timestamp':
          // The engine stores TIMESTAMP and TIMESTAMPTZ alike (UTC microseconds), so the typed
          // append lands unshifted in a TIMESTAMPTZ column, without the generic value path.
          appender.appendTimestamp(new DuckDBTimestampValue(BigInt(value as number) * 1000n));
          break;
      }
    }
    appender.endRow();
  }
}

type AnyTable = TableDefinition<Record<string, ColumnSpec>>;

/** Appends rows to a table on this connection (inside the caller's transaction, if any). */
export async function appendToTable(
  connection: DuckDBConnection,
  table: TableDefinition<Record<string, ColumnSpec>> | { name: string; columns: object },
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  if (rows.length === 0) return;
  const appender = await connection.createAppender(table.name);
  appendRows(appender, table as AnyTable, rows);
  appender.closeSync();
}

/** `$1, $2, …` for an IN list of `count` parameters after `offset` earlier ones. */
export function placeholders(count: number, offset = 0): string {
  return Array.from({ length: count }, (_, i) => `$${i + 1 + offset}`).join(', ');
}
