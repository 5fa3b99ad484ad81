/**
 * A `node --import` preload that numbers every fault point of an `etl` child without touching
 * product code: SQLite reads (extraction), DuckDB statements (transaction open, delete, commit,
 * ledger update) and appender rows (mid-append). With ETL_FAULT_AT=<n> the process SIGKILLs itself
 * at point n, with ETL_FAULT_ERROR=<message> throws that I/O error there, and with
 * ETL_FAULT_PAUSE=<file> writes `<file>.paused` and blocks there until `<file>` exists (so a test
 * can act while the run holds its state). ETL_FAULT_LOG lists the labels of every point reached.
 */
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';

const at = Number(process.env.ETL_FAULT_AT ?? '0');
const errorMessage = process.env.ETL_FAULT_ERROR;
const log = process.env.ETL_FAULT_LOG;
const pause = process.env.ETL_FAULT_PAUSE;
let reached = 0;

function point(label: string): void {
  reached++;
  if (log) appendFileSync(log, `${label}\n`);
  if (reached !== at) return;
  if (errorMessage) throw new Error(errorMessage);
  if (pause) {
    waitFor(pause);
    return;
  }
  process.kill(process.pid, 'SIGKILL');
}

function waitFor(resumeFile: string): void {
  writeFileSync(`${resumeFile}.paused`, String(process.pid));
  const cell = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(resumeFile)) Atomics.wait(cell, 0, 0, 20);
}

// biome-ignore lint/suspicious/noExplicitAny: wrapping arbitrary prototype methods by name.
function wrap(proto: any, name: string, label: (args: unknown[]) => string): void {
  const original = proto[name] as (...args: unknown[]) => unknown;
  proto[name] = function (this: unknown, ...args: unknown[]) {
    point(label(args));
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
for (const name of ['get', 'all']) wrap(statementProto, name, () => `sqlite ${name}`);
