/**
 * Read-only, in-process looks at a warehouse (a DuckDB path, or a `duckdb:`/`parquet:` target spec):
 * per-session checksums and `etl verify`'s report.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { runQuery } from '../../../src/load/duckdb/read-only-query.js';
import { type VerifyReport, verifyWarehouse } from '../../../src/load/duckdb/verify-warehouse.js';
import type { TargetLocation } from '../../../src/load/open-target.js';
import { withReadOnlyTarget } from '../../../src/load/read-only-target.js';

function locationOf(target: string): TargetLocation {
  const match = /^(duckdb|parquet):(.+)$/.exec(target);
  return match
    ? { kind: match[1] as TargetLocation['kind'], path: match[2]! }
    : { kind: 'duckdb', path: target };
}

function withTarget<T>(target: string, work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  return withReadOnlyTarget(locationOf(target), work);
}

const TABLES: readonly [string, string][] = [
  ['sessions', 'session_id'],
  ['messages', 'session_id, ordinal'],
  ['tool_calls', 'session_id, message_id, tool_ordinal'],
  ['source_instances', 'session_id, instance_ordinal'],
];

function checksumSql(sessionIds: readonly string[]): string {
  const list = sessionIds.map((id) => `'${id.replaceAll("'", "''")}'`).join(', ');
  const parts = TABLES.map(
    ([table, order]) =>
      `(SELECT count(*) || ':' || coalesce(md5(string_agg(t::VARCHAR, '|' ORDER BY ${order})), '-') FROM ${table} t WHERE session_id IN (${list}))`,
  );
  return `SELECT ${parts.join(" || '/' || ")} AS c`;
}

/** One digest over every row of the given sessions in every content table. */
export async function sessionsChecksum(warehouse: string, sessionIds: readonly string[]): Promise<string> {
  return withTarget(warehouse, async (connection) =>
    String((await runQuery(connection, checksumSql(sessionIds))).rows[0]?.c),
  );
}

/** The checksum of the given sessions and `etl verify`'s report, in one read-only open. */
export async function probeWarehouse(
  warehouse: string,
  sessionIds: readonly string[],
): Promise<{ checksum: string; report: VerifyReport }> {
  return withTarget(warehouse, async (connection) => ({
    checksum: String((await runQuery(connection, checksumSql(sessionIds))).rows[0]?.c),
    report: await verifyWarehouse(connection),
  }));
}

export async function verifyReport(warehouse: string): Promise<VerifyReport> {
  return withTarget(warehouse, verifyWarehouse);
}
