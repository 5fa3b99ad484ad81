import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROW_TABLES } from '../../../schemas/tables.js';
import { messageArchiveKey, sessionArchiveKey, toolArchiveKey } from '../../../src/transform/archive-keys.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';
import { loadSample, type SampleWarehouse } from '../../helpers/sample-warehouse.js';
import { fingerprintDuckDb, fingerprintRows } from '../../helpers/table-checksum.js';

interface ArchiveLine {
  key: string;
  sessionId: string;
  fidelity: string;
  viewDigest: string;
  messages: { key: string; messageId: string; toolCalls: { key: string; toolIndex: number }[] }[];
}

describe('etl export', () => {
  let sample: SampleWarehouse;
  let warehouse: string;
  beforeAll(() => {
    sample = loadSample('duckdb');
    warehouse = sample.target.slice('duckdb:'.length);
  });

  const exportTo = (format: string, extra: string[] = []): string => {
    const out = join(tempDir(), `export-${format}`);
    const result = runCli([
      'export',
      '--json',
      '--format',
      format,
      '--out',
      out,
      '--target',
      sample.target,
      ...extra,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return out;
  };

  it('Parquet files read back with DuckDB have the row counts and content checksum of the warehouse', async () => {
    const out = exportTo('parquet');
    for (const table of ROW_TABLES) {
      const file = join(out, `${table.name}.parquet`);
      const exported = await fingerprintDuckDb(':memory:', `read_parquet('${file}')`, table.columns);
      expect(exported).toEqual(await fingerprintDuckDb(warehouse, table.name, table.columns));
    }
  });

  it('Arrow IPC files read back with apache-arrow have the row counts and content checksum of the warehouse', async () => {
    const out = exportTo('arrow');
    for (const table of ROW_TABLES) {
      const arrow = tableFromIPC(readFileSync(join(out, `${table.name}.arrow`)));
      expect(arrow.schema.fields.map((f) => f.name)).toEqual(table.columnNames);
      const rows = [...arrow].map((row) => row.toJSON() as Record<string, unknown>);
      expect(fingerprintRows(rows)).toEqual(await fingerprintDuckDb(warehouse, table.name, table.columns));
    }
  });

  it('JSONL writes one line per row and files are owner-only with no temp residue', () => {
    const out = exportTo('jsonl', ['--tables', 'sessions,messages']);
    expect(readdirSync(out).sort()).toEqual(['messages.jsonl', 'sessions.jsonl']);
    const messages = readFileSync(join(out, 'messages.jsonl'), 'utf8').trim().split('\n');
    expect(messages).toHaveLength(12);
    expect(JSON.parse(messages[0]!)).toMatchObject({ ordinal: 0, role: 'user' });
    for (const name of readdirSync(out)) expect(statSync(join(out, name)).mode & 0o777).toBe(0o600);
  });

  it('archive-jsonl carries the downstream key grammar, fidelity and view_digest, one line per session', async () => {
    const file = exportTo('archive-jsonl');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ArchiveLine);
    expect(lines.map((l) => l.sessionId)).toEqual([
      '3f2a9c1e-0000-4000-8000-00000000a001',
      '3f2a9c1e-0000-4000-8000-00000000a002',
      '3f2a9c1e-0000-4000-8000-00000000a003',
    ]);
    const stored = await fingerprintDuckDb(warehouse, 'sessions', {
      session_id: { kind: 'text' },
      fidelity: { kind: 'text' },
      view_digest: { kind: 'text' },
    });
    expect(
      fingerprintRows(
        lines.map((l) => ({ session_id: l.sessionId, fidelity: l.fidelity, view_digest: l.viewDigest })),
      ),
    ).toEqual(stored);
    let toolCalls = 0;
    for (const line of lines) {
      expect(line.key).toBe(sessionArchiveKey(line.sessionId));
      for (const message of line.messages) {
        expect(message.key).toBe(messageArchiveKey(line.sessionId, message.messageId));
        message.toolCalls.forEach((call, index) => {
          expect(call.toolIndex).toBe(index);
          expect(call.key).toBe(toolArchiveKey(message.key, index));
          toolCalls++;
        });
      }
    }
    expect(toolCalls).toBe(4);
    expect(lines[0]!.messages[1]!.toolCalls[0]!.key).toBe(
      'cursor:3f2a9c1e-0000-4000-8000-00000000a001:b-a001-02:tc:0',
    );
  });

  it('archive-jsonl writes stored params verbatim, even 100 000 levels deep (no parse/stringify round trip)', async () => {
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    const copy = join(tempDir(), 'deep.duckdb');
    copyFileSync(warehouse, copy);
    const instance = await DuckDBInstance.create(copy);
    const connection = await instance.connect();
    await connection.run('UPDATE tool_calls SET params = $1 WHERE tool_ordinal = 0', [deep]);
    connection.closeSync();
    instance.closeSync();
    const file = join(tempDir(), 'deep.jsonl');
    const result = runCli([
      'export',
      '--json',
      '--format',
      'archive-jsonl',
      '--out',
      file,
      '--target',
      `duckdb:${copy}`,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.split(`"params":${deep},`).length - 1).toBe(4);
    expect(text.trim().split('\n')).toHaveLength(3);
  });

  it('--where filters the exported rows', () => {
    const out = exportTo('jsonl', ['--tables', 'messages', '--where', "role = 'user'"]);
    const lines = readFileSync(join(out, 'messages.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).role)).toEqual(['user', 'user', 'user', 'user']);
  });

  it('an invalid --where is a usage error (exit 2) and leaves no file behind', () => {
    const out = join(tempDir(), 'bad');
    const result = runCli([
      'export',
      '--json',
      '--format',
      'parquet',
      '--out',
      out,
      '--target',
      sample.target,
      '--where',
      'no_such_column = 1',
    ]);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr).error.code).toBe('EXPORT_WHERE_INVALID');
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });

  it('an unknown table is a usage error naming the known tables', () => {
    const result = runCli([
      'export',
      '--json',
      '--format',
      'jsonl',
      '--out',
      tempDir(),
      '--target',
      sample.target,
      '--tables',
      'nope',
    ]);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr).error).toMatchObject({
      code: 'EXPORT_TABLE_UNKNOWN',
      details: { table: 'nope' },
    });
  });
});
