/**
 * The raw floor, the speed limit of a full load: every payload read once, SHA-256'd, JSON-parsed
 * where JSON and appended to DuckDB; tree nodes hashed, no pipeline logic. `node
 * dist/bench/raw-floor.js --user-dir DIR [--store-root DIR] --out FILE.duckdb`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { type DuckDBAppender, DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { NEW_WAREHOUSE_STORAGE_VERSION } from '../src/load/duckdb/storage-version.js';
import { parseIntFlags } from './bench-args.js';

const FLUSH_ROWS = 20_000;
const LF = 0x0a;

/** Hashes, parses and appends payloads, counting what was read. */
class FloorSink {
  bytes = 0;
  reads = 0;
  objects = 0;

  constructor(private readonly appender: DuckDBAppender) {}

  /** `text` is the payload's JSON text, or null for binary payloads (tree nodes): hashed only. */
  add(key: string, bytes: Uint8Array, text: string | null): void {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    this.bytes += bytes.length;
    this.reads += 1;
    if (text === null) return;
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) this.objects += 1;
    this.appender.appendVarchar(key);
    this.appender.appendVarchar(sha256);
    this.appender.appendVarchar(text);
    this.appender.endRow();
    if (this.reads % FLUSH_ROWS === 0) this.appender.flushSync();
  }
}

function composerDbs(userDir: string): { path: string; table: string }[] {
  const dbs = [{ path: join(userDir, 'globalStorage', 'state.vscdb'), table: 'cursorDiskKV' }];
  const workspaces = join(userDir, 'workspaceStorage');
  for (const name of existsSync(workspaces) ? readdirSync(workspaces).sort() : []) {
    dbs.push({ path: join(workspaces, name, 'state.vscdb'), table: 'ItemTable' });
  }
  return dbs.filter((db) => existsSync(db.path));
}

function composerPayloads(path: string, table: string, sink: FloorSink): void {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(`SELECT CAST(key AS TEXT) AS k, CAST(value AS BLOB) AS v FROM ${table}`)
      .iterate();
    for (const row of rows as Iterable<{ k: string; v: Buffer | null }>) {
      if (row.v !== null) sink.add(row.k, row.v, row.v.toString('utf8'));
    }
  } finally {
    db.close();
  }
}

function varint(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  let i = at;
  while (i < bytes.length) {
    const byte = bytes[i++]!;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if ((byte & 0x80) === 0) break;
  }
  return [value, i];
}

/** The JSON of a protobuf-wrapped leaf (first length-delimited field 4), or null (a tree node). */
function protobufJson(bytes: Uint8Array): Uint8Array | null {
  let i = 0;
  while (i < bytes.length) {
    const [tag, afterTag] = varint(bytes, i);
    const wire = tag & 7;
    if (wire === 0) i = varint(bytes, afterTag)[1];
    else if (wire === 1) i = afterTag + 8;
    else if (wire === 5) i = afterTag + 4;
    else if (wire === 2) {
      const [length, start] = varint(bytes, afterTag);
      if (tag >>> 3 === 4) return bytes.subarray(start, start + length);
      i = start + length;
    } else return null;
  }
  return null;
}

function storeDbPayloads(path: string, sink: FloorSink): void {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const meta = db.prepare("SELECT CAST(value AS TEXT) AS v FROM meta WHERE key = '0'").get() as
      | { v: string }
      | undefined;
    if (meta) {
      const bytes = Buffer.from(meta.v, 'hex');
      sink.add(`meta:${path}`, bytes, bytes.toString('utf8'));
    }
    const blobs = db.prepare('SELECT id, CAST(data AS BLOB) AS data FROM blobs').iterate();
    for (const blob of blobs as Iterable<{ id: string; data: Buffer }>) {
      const json = blob.data[0] === 0x7b ? blob.data : protobufJson(blob.data);
      sink.add(blob.id, blob.data, json === null ? null : Buffer.from(json).toString('utf8'));
    }
  } finally {
    db.close();
  }
}

function transcriptPayloads(path: string, sink: FloorSink): void {
  const bytes = readFileSync(path);
  let line = 1;
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let start = bom; start < bytes.length; line++) {
    const newline = bytes.indexOf(LF, start);
    const end = newline < 0 ? bytes.length : newline;
    const record = bytes.subarray(start, bytes[end - 1] === 0x0d ? end - 1 : end);
    if (record.length > 0) sink.add(`${path}:${line}`, record, record.toString('utf8'));
    start = end + 1;
  }
}

function storePayloads(storeRoot: string, sink: FloorSink): void {
  const files = readdirSync(storeRoot, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const path = join(storeRoot, file);
    if (basename(file) === 'store.db') storeDbPayloads(path, sink);
    else if (basename(file) === 'meta.json') {
      const bytes = readFileSync(path);
      sink.add(path, bytes, bytes.toString('utf8'));
    } else if (file.endsWith('.jsonl') && file.includes(`agent-transcripts${sep}`))
      transcriptPayloads(path, sink);
  }
}

const { strings } = parseIntFlags(process.argv.slice(2), {}, ['user-dir', 'store-root', 'out']);
if (!strings['user-dir'] || !strings.out)
  throw new Error('usage: raw-floor --user-dir DIR [--store-root DIR] --out FILE.duckdb');
// The floor writes the same file format as the pipeline (it measured the same with the default).
const instance = await DuckDBInstance.create(strings.out, {
  storage_compatibility_version: NEW_WAREHOUSE_STORAGE_VERSION,
});
const connection = await instance.connect();
await connection.run('CREATE TABLE payloads (key VARCHAR, sha256 VARCHAR, value VARCHAR)');
const version = (await connection.runAndReadAll('SELECT version() AS v')).getRowObjects()[0]!.v;
await connection.run('BEGIN TRANSACTION');
const appender = await connection.createAppender('payloads');
const sink = new FloorSink(appender);
for (const { path, table } of composerDbs(strings['user-dir'])) composerPayloads(path, table, sink);
if (strings['store-root'] && existsSync(strings['store-root'])) storePayloads(strings['store-root'], sink);
appender.closeSync();
await connection.run('COMMIT');
connection.closeSync();
instance.closeSync();
process.stdout.write(
  `${JSON.stringify({ run: { payloadBytesRead: sink.bytes, payloadReads: sink.reads, jsonObjects: sink.objects }, duckdbVersion: String(version) })}\n`,
);
