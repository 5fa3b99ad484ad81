/**
 * A `node --import` preload numbering every fault point of an `etl` child (SQLite reads, DuckDB
 * statements, appender rows, and file system calls under ETL_FAULT_FS_ROOT). At point ETL_FAULT_AT
 * it SIGKILLs, throws ETL_FAULT_ERROR or waits for ETL_FAULT_PAUSE; ETL_FAULT_AT_SQL picks a read
 * by SQL.
 */
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';

// The CLI bundle carries its own `@duckdb/node-api` (build/bundle-cli.ts); this entry exports it.
const bundledApi = new URL('../../../src/cli/chunks/duckdb-node-api.js', import.meta.url).href;
const { DuckDBAppender, DuckDBConnection } = (await import(bundledApi))
  .default as typeof import('@duckdb/node-api');

const at = Number(process.env.ETL_FAULT_AT ?? '0');
const errorCode = process.env.ETL_FAULT_ERROR;
const log = process.env.ETL_FAULT_LOG;
const pause = process.env.ETL_FAULT_PAUSE;
const atSql = process.env.ETL_FAULT_AT_SQL ? new RegExp(process.env.ETL_FAULT_AT_SQL) : null;
const fsRoot = process.env.ETL_FAULT_FS_ROOT ? resolve(process.env.ETL_FAULT_FS_ROOT) : null;
let reached = 0;

const STRERROR: Record<string, string> = { ENOSPC: 'No space left on device', EIO: 'Input/output error' };

function storageError(label: string, code: string): Error {
  const text = STRERROR[code] ?? code;
  if (!label.startsWith('fs ')) return new Error(`IO Error: Could not write file "injected": ${text}`);
  return Object.assign(new Error(`${code}: ${text.toLowerCase()}, ${label}`), { code, syscall: label });
}

let sqlMatched = false;

/** Whether this point is the fault point: the `at`-th point, or the first read matching `atSql`. */
function isFaultPoint(sql: string | undefined): boolean {
  if (atSql === null) return reached === at;
  if (sqlMatched || sql === undefined || !atSql.test(sql)) return false;
  sqlMatched = true;
  return true;
}

function point(label: string, sql?: string): void {
  reached++;
  if (log) appendFileSync(log, `${label}\n`);
  if (!isFaultPoint(sql)) return;
  if (errorCode) throw storageError(label, errorCode);
  if (pause) {
    waitFor(pause, { pid: process.pid, point: reached, label, sql: sql ?? null });
    return;
  }
  process.kill(process.pid, 'SIGKILL');
}

function waitFor(resumeFile: string, held: Record<string, unknown>): void {
  writeFileSync(`${resumeFile}.paused`, JSON.stringify(held));
  const cell = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(resumeFile)) Atomics.wait(cell, 0, 0, 20);
}

/** `sql` names what a SQLite statement reads (its `source`), for `ETL_FAULT_AT_SQL`. */
function wrap(
  // biome-ignore lint/suspicious/noExplicitAny: wrapping arbitrary prototype methods by name.
  proto: any,
  name: string,
  label: (args: unknown[]) => string,
  sql?: (self: { source: string }) => string,
): void {
  const original = proto[name] as (...args: unknown[]) => unknown;
  proto[name] = function (this: { source: string }, ...args: unknown[]) {
    point(label(args), sql?.(this));
    return original.apply(this, args);
  };
}

const sqlVerb = (args: unknown[]): string => {
  const sql = String(args[0]).trim();
  const words = sql.split(/\s+/, 3);
  return words[0] === 'UPDATE' || words[0] === 'DELETE'
    ? `${words[0]} ${words[1] === 'FROM' ? words[2] : words[1]}`
    : words[0]!;
};
wrap(DuckDBConnection.prototype, 'run', (args) => `duckdb ${sqlVerb(args)}`);
wrap(DuckDBConnection.prototype, 'createAppender', (args) => `duckdb appender-open ${String(args[0])}`);
wrap(DuckDBAppender.prototype, 'endRow', () => 'duckdb append-row');
wrap(DuckDBAppender.prototype, 'closeSync', () => 'duckdb appender-close');

const Database = createRequire(import.meta.url)('better-sqlite3');
const probe = new Database(':memory:');
const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1'));
probe.close();
for (const name of ['get', 'all'])
  wrap(
    statementProto,
    name,
    () => `sqlite ${name}`,
    (stmt) => stmt.source,
  );

/** What a dataset path is, for the point label: the publication step it belongs to. */
function pathKind(path: string): string {
  if (/CURRENT/.test(path)) return 'CURRENT';
  if (/manifest\.json/.test(path)) return 'manifest';
  if (/\.parquet$/.test(path)) return 'parquet';
  if (/staging/.test(path)) return 'staging';
  if (/\.lock/.test(path)) return 'lock';
  return /states/.test(path) ? 'state-dir' : 'other';
}

// Patching the CommonJS `fs` object and syncing the ESM bindings reaches `import { x } from 'node:fs'`.
if (fsRoot !== null) {
  const fs = createRequire(import.meta.url)('node:fs');
  const under = (path: unknown): boolean => typeof path === 'string' && resolve(path).startsWith(fsRoot);
  for (const name of ['openSync', 'renameSync', 'linkSync', 'mkdirSync', 'rmSync', 'unlinkSync']) {
    const original = fs[name] as (...args: unknown[]) => unknown;
    fs[name] = function (this: unknown, ...args: unknown[]) {
      const path = name === 'renameSync' || name === 'linkSync' ? args[1] : args[0];
      if (under(path)) point(`fs ${name.replace(/Sync$/, '')} ${pathKind(String(path))}`);
      return original.apply(this, args);
    };
  }
  syncBuiltinESMExports();
}
