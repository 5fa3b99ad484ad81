/**
 * The raw floor: only the unavoidable work of a full load on the same corpus — read every payload
 * once, JSON.parse it, SHA-256 its bytes, append one row per payload to DuckDB with the appender.
 * No pipeline logic; it is the speed limit on this machine.
 * `node dist/bench/raw-floor.js --user-dir DIR --out FILE.duckdb` prints a JSON summary.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type DuckDBAppender, DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { parseIntFlags } from './bench-args.js';

const FLUSH_ROWS = 20_000;

interface Totals {
  bytes: number;
  reads: number;
  objects: number;
}

function stateDbs(userDir: string): { path: string; table: string }[] {
  const dbs = [{ path: join(userDir, 'globalStorage', 'state.vscdb'), table: 'cursorDiskKV' }];
  const workspaces = join(userDir, 'workspaceStorage');
  for (const name of existsSync(workspaces) ? readdirSync(workspaces).sort() : []) {
    dbs.push({ path: join(workspaces, name, 'state.vscdb'), table: 'ItemTable' });
  }
  return dbs.filter((db) => existsSync(db.path));
}

function copyPayloads(path: string, table: string, appender: DuckDBAppender, totals: Totals): void {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(`SELECT CAST(key AS TEXT) AS k, CAST(value AS BLOB) AS v FROM ${table}`)
      .iterate();
    for (const row of rows as Iterable<{ k: string; v: Buffer | null }>) {
      if (row.v === null) continue;
      const text = row.v.toString('utf8');
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null) totals.objects += 1;
      appender.appendVarchar(row.k);
      appender.appendVarchar(createHash('sha256').update(row.v).digest('hex'));
      appender.appendVarchar(text);
      appender.endRow();
      totals.bytes += row.v.length;
      totals.reads += 1;
      if (totals.reads % FLUSH_ROWS === 0) appender.flushSync();
    }
  } finally {
    db.close();
  }
}

const { strings } = parseIntFlags(process.argv.slice(2), {}, ['user-dir', 'out']);
if (!strings['user-dir'] || !strings.out)
  throw new Error('usage: raw-floor --user-dir DIR --out FILE.duckdb');
const instance = await DuckDBInstance.create(strings.out);
const connection = await instance.connect();
await connection.run('CREATE TABLE payloads (key VARCHAR, sha256 VARCHAR, value VARCHAR)');
const version = (await connection.runAndReadAll('SELECT version() AS v')).getRowObjects()[0]!.v;
const totals: Totals = { bytes: 0, reads: 0, objects: 0 };
await connection.run('BEGIN TRANSACTION');
const appender = await connection.createAppender('payloads');
for (const { path, table } of stateDbs(strings['user-dir'])) copyPayloads(path, table, appender, totals);
appender.closeSync();
await connection.run('COMMIT');
connection.closeSync();
instance.closeSync();
process.stdout.write(
  `${JSON.stringify({ run: { payloadBytesRead: totals.bytes, payloadReads: totals.reads, jsonObjects: totals.objects }, duckdbVersion: String(version) })}\n`,
);
