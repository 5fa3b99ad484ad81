/**
 * Arrow IPC (file format, readable by pyarrow and Polars) written with apache-arrow: DuckDB
 * streams the table chunk by chunk and each chunk becomes one record batch, so memory stays flat.
 */

import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import {
  Bool,
  type DataType,
  Field,
  Int32,
  Int64,
  makeData,
  RecordBatch,
  RecordBatchFileWriter,
  Schema,
  Struct,
  TimestampMillisecond,
  Utf8,
  vectorFromArray,
} from 'apache-arrow';
import type { ColumnSpec } from '../../../schemas/table-definition.js';
import { outputModes } from '../../shared/output-permissions.js';
import { exportQueryFailed } from './copy-export.js';
import type { ExportProgress } from './export-progress.js';
import { type AnyTable, exportSelect } from './export-tables.js';

function arrowType(spec: ColumnSpec): DataType {
  switch (spec.kind) {
    case 'int':
      return new Int32();
    case 'bigint':
      return new Int64();
    case 'bool':
      return new Bool();
    case 'timestamp':
      return new TimestampMillisecond('UTC');
    default:
      return new Utf8();
  }
}

export function arrowSchema(table: AnyTable): Schema {
  return new Schema(
    Object.entries(table.columns).map(([name, spec]) => new Field(name, arrowType(spec), spec.nullable)),
  );
}

function toArrowValue(value: DuckDBValue, type: DataType): unknown {
  if (value === null) return null;
  if (type instanceof Int64) return BigInt(value as bigint | number);
  if (type instanceof TimestampMillisecond) return Number(value);
  return value;
}

function recordBatch(schema: Schema, columns: DuckDBValue[][], rowCount: number): RecordBatch {
  const children = schema.fields.map(
    (field, i) =>
      vectorFromArray(columns[i]!.map((v) => toArrowValue(v, field.type)) as never, field.type).data[0]!,
  );
  return new RecordBatch(
    schema,
    makeData({ type: new Struct(schema.fields), length: rowCount, nullCount: 0, children }),
  );
}

async function drained(out: WriteStream): Promise<void> {
  if (out.writableNeedDrain) await once(out, 'drain');
}

/** Writes `table` as an Arrow IPC file at `path` (owner-only) and returns the row count. */
export async function exportArrow(
  connection: DuckDBConnection,
  table: AnyTable,
  where: string | undefined,
  path: string,
  progress: ExportProgress,
): Promise<number> {
  const schema = arrowSchema(table);
  let result: Awaited<ReturnType<DuckDBConnection['stream']>>;
  try {
    result = await connection.stream(exportSelect(table, where, 'epoch-ms'));
  } catch (error) {
    throw exportQueryFailed(table, error);
  }
  const out = createWriteStream(path, { flags: 'wx', mode: outputModes().file });
  const writer = new RecordBatchFileWriter();
  writer.toNodeStream().pipe(out);
  let rows = 0;
  try {
    for (
      let chunk = await result.fetchChunk();
      chunk && chunk.rowCount > 0;
      chunk = await result.fetchChunk()
    ) {
      writer.write(recordBatch(schema, chunk.getColumns(), chunk.rowCount));
      rows += chunk.rowCount;
      progress.rows(table.name, rows);
      await drained(out);
    }
    // An empty table still gets a valid file carrying its schema.
    if (rows === 0)
      writer.write(
        recordBatch(
          schema,
          schema.fields.map(() => []),
          0,
        ),
      );
  } finally {
    writer.finish();
    await once(out, 'finish');
  }
  return rows;
}
