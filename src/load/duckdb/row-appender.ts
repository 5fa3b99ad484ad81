/** Appends normalized rows through the DuckDB appender, typed by the table definition. */
import { type DuckDBAppender, DuckDBTimestampValue } from '@duckdb/node-api';
import type { ColumnSpec, TableDefinition } from '../../../schemas/table-definition.js';

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
        case 'bool':
          appender.appendBoolean(value as boolean);
          break;
        case 'timestamp':
          appender.appendTimestamp(new DuckDBTimestampValue(BigInt(value as number) * 1000n));
          break;
      }
    }
    appender.endRow();
  }
}
