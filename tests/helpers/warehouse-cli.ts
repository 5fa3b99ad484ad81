/** CLI-level helpers over a warehouse: JSON runs, queries and a checksum of every content table. */
import { expect } from 'vitest';
import { runCli } from './run-cli.js';

export interface RunJson {
  runId: string;
  status: string;
  mode: string;
  counts: Record<string, number>;
  payloadBytesRead: number;
  payloadReads: number;
}

export function runJson(args: readonly string[], env: Record<string, string> = {}): RunJson {
  const result = runCli(['run', '--json', ...args], env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { run: RunJson }).run;
}

export function queryRows(target: string, sql: string): Record<string, unknown>[] {
  const result = runCli(['query', '--json', '--target', target, sql]);
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { rows: Record<string, unknown>[] }).rows;
}

/** One md5 over every content table, in a fixed order (ledger and run tables excluded). */
export const CONTENT_CHECKSUM_SQL =
  "select coalesce((select md5(string_agg(s::varchar, '|' order by session_id)) from sessions s), '') || " +
  "coalesce((select md5(string_agg(m::varchar, '|' order by session_id, ordinal)) from messages m), '') || " +
  "coalesce((select md5(string_agg(t::varchar, '|' order by session_id, message_id, tool_ordinal)) from tool_calls t), '') || " +
  "coalesce((select md5(string_agg(i::varchar, '|' order by session_id, instance_ordinal)) from source_instances i), '') as c";

export function contentChecksum(target: string): string {
  return String(queryRows(target, CONTENT_CHECKSUM_SQL)[0]!.c);
}
