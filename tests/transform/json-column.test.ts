import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { buildSampleCorpus, SAMPLE_COMPOSERS } from '../../fixtures/sample/sample-corpus.js';
import { canonicalJson } from '../../src/shared/json/canonical-json.js';
import { jsonColumn } from '../../src/transform/json-column.js';
import { ToolIdentityAllocator } from '../../src/transform/tool-identity.js';
import { rewriteComposer } from '../helpers/mutate-composer.js';
import { tempDir } from '../helpers/run-cli.js';
import { queryRows, runJson } from '../helpers/warehouse-cli.js';

async function duckDbAccepts(texts: string[]): Promise<boolean[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const result: boolean[] = [];
  for (const text of texts) {
    const reader = await connection.runAndReadAll('SELECT json_valid($1::VARCHAR) AS ok', [text]);
    result.push(reader.getRowObjects()[0]?.ok === true);
  }
  connection.closeSync();
  instance.closeSync();
  return result;
}

describe('JSON columns hold text DuckDB can parse', () => {
  it('keep canonical JSON as it is, control escapes, escaped backslashes and surrogate pairs included', async () => {
    const values = [{ b: 1, a: ['x', null] }, { t: 'tab\there \u0001' }, { p: 'C:\\ud800' }, { e: '😀' }];
    const texts = values.map(jsonColumn);
    expect(texts).toEqual(values.map((v) => canonicalJson(v)));
    expect(await duckDbAccepts(texts)).toEqual([true, true, true, true]);
  });

  it('store a value holding an unpaired surrogate as {"_raw": its canonical text}, which DuckDB accepts', async () => {
    const values = [{ q: 'cut \ud83d' }, ['\udc00'], { 'k\ud800': 1 }, { p: 'C:\\\ud800' }];
    const texts = values.map(jsonColumn);
    expect(await duckDbAccepts(values.map((v) => canonicalJson(v)))).toEqual([false, false, false, false]);
    expect(await duckDbAccepts(texts)).toEqual([true, true, true, true]);
    expect(texts.map((t) => (JSON.parse(t) as { _raw: string })._raw)).toEqual(
      values.map((v) => canonicalJson(v)),
    );
  });

  it('a Composer tool call whose argument string was cut mid-character loads, queryable, with its identity unchanged', () => {
    const root = tempDir();
    const { userDir } = buildSampleCorpus(join(root, 'cursor'));
    const composer = SAMPLE_COMPOSERS[0]!;
    const params = { targetFile: '/home/dev/acme-api/src/app.ts', note: 'cut \ud83d' };
    const bubbles = composer.bubbles.map((b) => (b.tool ? { ...b, tool: { ...b.tool, params } } : b));
    rewriteComposer(join(userDir, 'globalStorage', 'state.vscdb'), { ...composer, bubbles });
    const target = `duckdb:${join(root, 'w.duckdb')}`;
    runJson(['--cursor-user-dir', userDir, '--target', target]);
    const rows = queryRows(
      target,
      `SELECT message_id, name, tool_id, json_valid(params) AS ok, json_extract_string(params, '$._raw') AS raw
         FROM tool_calls WHERE session_id = '${composer.id}' ORDER BY message_id, tool_ordinal`,
    );
    const tools = bubbles.filter((b) => b.tool);
    expect(rows).toHaveLength(tools.length);
    for (const [i, row] of rows.entries()) {
      expect(row.ok).toBe(true);
      expect(row.raw).toBe(canonicalJson(params));
      // The identity hashes the parsed arguments, as cursor-history does, not the stored wrapper.
      const expected = new ToolIdentityAllocator(tools[i]!.id).next({ name: tools[i]!.tool!.name, params });
      expect(row.tool_id).toBe(expected);
    }
  }, 120_000);
});
