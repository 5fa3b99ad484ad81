/**
 * Copies a content partition to Parquet in table order without one whole sort, which pins its
 * blocks and did not fit the build's pool: rows go into a temporary table in session ranges of
 * bounded bytes, each sorted alone, and are copied out in insertion order.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { sessionRanges } from '../duckdb/session-ranges.js';
import { sqlString } from '../duckdb/sql-string.js';
import { copyQueryTo } from '../export/copy-export.js';
import { type AnyTable, orderByFor } from '../export/export-tables.js';

/** Bytes of one sorted session range: its sort fits the build's 96 MB pool with room for the writer. */
const RANGE_BYTES = 8 * 1024 * 1024;
/** Bytes of one row group: each writing thread buffers one, so they stay far below the pool. */
const ROW_GROUP_BYTES = 4 * 1024 * 1024;
/** DuckDB's default row-group size: the bound for narrow rows. */
const MAX_ROW_GROUP_ROWS = 122_880;
/** DuckDB writes at least one vector (2,048 rows) per row group. */
const MIN_ROW_GROUP_ROWS = 2_048;

export interface PartitionLimits {
  rangeBytes: number;
  rowGroupBytes: number;
}

export const DEFAULT_PARTITION_LIMITS: PartitionLimits = {
  rangeBytes: RANGE_BYTES,
  rowGroupBytes: ROW_GROUP_BYTES,
};

/** Approximate row width: text and JSON by their UTF-8 bytes, every other column as 8 bytes. */
function rowBytesSql(table: AnyTable): string {
  return Object.entries(table.columns)
    .map(([name, spec]) =>
      spec.kind === 'text' || spec.kind === 'json' ? `coalesce(strlen(${name}::VARCHAR), 0)` : '8',
    )
    .join(' + ');
}

/**
 * The staged sessions' sizes in `table`, by bucket: one scan, where one per bucket read the table 16
 * times. `sessions` names the table of `(session_id, bucket)` whose rows of `table` are staged.
 */
export async function measureStagedSessions(
  connection: DuckDBConnection,
  table: AnyTable,
  sessions = 'staged_sessions',
): Promise<void> {
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE session_sizes AS SELECT s.bucket, t.session_id, sum(${rowBytesSql(table)})::BIGINT AS bytes, count(*) AS row_count FROM ${table.name} t JOIN ${sessions} s USING (session_id) GROUP BY ALL`,
  );
}

export interface PartitionSource {
  bucket: string;
  /** The staged rows of the bucket (after `measureStagedSessions` for the same table). */
  staged: string;
  /** The previous state's rows of the bucket that this run keeps, if any. */
  kept: string | null;
}

/** Writes the partition's rows to `path`, ordered like the table's exports; returns the row count. */
export async function copyOrderedPartition(
  connection: DuckDBConnection,
  table: AnyTable,
  partition: PartitionSource,
  path: string,
  limits: PartitionLimits = DEFAULT_PARTITION_LIMITS,
): Promise<number> {
  const { bucket, staged, kept } = partition;
  const keptSizes =
    kept === null
      ? ''
      : ` UNION ALL SELECT session_id, sum(${rowBytesSql(table)})::BIGINT, count(*) FROM (${kept}) GROUP BY session_id`;
  const sizes = (
    await connection.runAndReadAll(
      `SELECT session_id, bytes, row_count FROM session_sizes WHERE bucket = ${sqlString(bucket)}${keptSizes} ORDER BY session_id`,
    )
  ).getRows();
  const sessions = sizes.map((row) => ({ sessionId: String(row[0]), weight: Number(row[1]) }));
  const rows = sizes.reduce((sum, row) => sum + Number(row[2]), 0);
  const bytes = sessions.reduce((sum, session) => sum + session.weight, 0);
  const groupRows =
    bytes === 0
      ? MAX_ROW_GROUP_ROWS
      : Math.max(
          MIN_ROW_GROUP_ROWS,
          Math.min(MAX_ROW_GROUP_ROWS, Math.floor((rows * limits.rowGroupBytes) / bytes)),
        );
  const source = `SELECT * FROM (${kept === null ? '' : `${kept} UNION ALL `}${staged})`;
  const options = `FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${groupRows}`;
  const ranges = sessionRanges(sessions, limits.rangeBytes);
  if (ranges.length <= 1)
    return copyQueryTo(connection, `${source} ORDER BY ${orderByFor(table)}`, path, options);
  await connection.run(`CREATE OR REPLACE TEMP TABLE partition_rows AS SELECT * FROM (${source}) LIMIT 0`);
  try {
    // Inserts keep their query's order, and a plain scan of the table returns insertion order.
    for (const { first, last } of ranges) {
      await connection.run(
        `INSERT INTO partition_rows SELECT * FROM (${source}) WHERE session_id BETWEEN ${sqlString(first)} AND ${sqlString(last)} ORDER BY ${orderByFor(table)}`,
      );
    }
    return await copyQueryTo(connection, 'SELECT * FROM partition_rows', path, options);
  } finally {
    await connection.run('DROP TABLE partition_rows');
  }
}
