/**
 * `export --where` is one boolean expression: an injection corpus in several wrappers is refused
 * typed, echoes nothing from outside the warehouse and writes nothing; honest filters still filter.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../../src/load/duckdb/read-only-query.js';
import { createExportProgress } from '../../../src/load/export/export-progress.js';
import { runExport } from '../../../src/load/export/run-export.js';
import { withReadOnlyTarget } from '../../../src/load/read-only-target.js';
import { tempDir } from '../../helpers/run-cli.js';
import { loadSample } from '../../helpers/sample-warehouse.js';

const SECRET = 'where-secret-51d7';

function injections(secret: string, sink: string, current: string): string[] {
  const payloads = [
    `SELECT content FROM read_text('${secret}')`,
    `SELECT * FROM read_csv('${secret}')`,
    `SELECT 1 FROM glob('/etc/*')`,
    `SELECT 1 FROM etl_runs`,
    `SELECT session_id FROM messages`,
    `COPY sessions TO '${sink}'`,
    `COPY (SELECT 'x') TO '${current}' (FORMAT csv, HEADER false)`,
    `ATTACH '${sink}.duckdb' AS evil`,
    `SET enable_external_access = true`,
    `INSTALL httpfs`,
  ];
  const wrappers = [
    (p: string) => `1=0) UNION ALL SELECT * FROM (${p}) --`,
    (p: string) => `1=0) UNION ALL ${p} --`,
    (p: string) => `true; ${p}`,
    (p: string) => `true); ${p}; --`,
    (p: string) => `true) ${p} (`,
    (p: string) => `EXISTS (${p})`,
    (p: string) => `session_id IN (${p})`,
    (p: string) => `(${p}) IS NOT NULL`,
    (p: string) => `title = 'a' OR (${p})`,
    (p: string) => `1=0 UNION ALL ${p}`,
  ];
  const shapes = [
    '*',
    '$1',
    '?',
    'true) OR (true',
    '((true)',
    'true)',
    'true LIMIT 1',
    'true ORDER BY 1',
    'true GROUP BY 1',
    'true AS x',
    'true, false',
    'true FROM etl_runs',
    'DISTINCT true',
    'etl_runs.run_id IS NULL',
    'no_such_column = 1',
    'messages.session_id IS NULL',
    "read_text('" + secret + "') IS NULL",
    'length(content) > 0',
    'WITH x AS (SELECT 1) SELECT true',
    'true;',
    ';',
    '',
    '/* open comment',
  ];
  return [...payloads.flatMap((p) => wrappers.map((w) => w(p))), ...shapes];
}

for (const kind of ['duckdb', 'parquet'] as const) {
  describe(`export --where on ${kind}: one boolean expression and nothing else`, () => {
    let location: { kind: 'duckdb' | 'parquet'; path: string };
    let secret: string;
    let sinkDir: string;
    beforeAll(() => {
      const sample = loadSample(kind);
      location = { kind, path: sample.target.slice(kind.length + 1) };
      secret = join(tempDir(), 'secret.csv');
      writeFileSync(secret, `s\n${SECRET}\n`);
      sinkDir = tempDir();
    });

    const exportOn = (
      connection: DuckDBConnection,
      where: string,
      out: string,
      format: 'jsonl' | 'archive-jsonl',
      tables: string[],
    ) => runExport(connection, { format, out, where, tables }, createExportProgress(false));
    const exportWith = (where: string, out: string, tables = ['sessions', 'messages']) =>
      withReadOnlyTarget(location, (c) => exportOn(c, where, out, 'jsonl', tables), {
        writableDirectories: [sinkDir],
      });

    it('every injection in the corpus is refused typed, leaks nothing and writes nothing', async () => {
      const current = join(location.path, 'CURRENT');
      const currentBefore = kind === 'parquet' ? readFileSync(current, 'utf8') : '';
      const corpus = injections(secret, join(sinkDir, 'sink.csv'), current);
      expect(corpus.length).toBeGreaterThan(100);
      // One sandboxed connection for the corpus: a statement that got through would persist.
      await withReadOnlyTarget(
        location,
        async (connection) => {
          for (const [index, where] of corpus.entries()) {
            for (const format of ['jsonl', 'archive-jsonl'] as const) {
              const out = join(sinkDir, `out-${index}-${format}${format === 'jsonl' ? '' : '.jsonl'}`);
              const outcome = await exportOn(connection, where, out, format, ['sessions', 'messages']).then(
                () => ({ ok: true, code: 'none', text: '' }),
                (error) => ({
                  ok: false,
                  code: String(error.code),
                  text: `${error.message} ${JSON.stringify(error.details)}`,
                }),
              );
              expect({ where, format, ok: outcome.ok }).toEqual({ where, format, ok: false });
              expect(['EXPORT_WHERE_INVALID', 'EXPORT_QUERY_FAILED'], where).toContain(outcome.code);
              expect(outcome.text).not.toContain(SECRET);
            }
          }
        },
        { writableDirectories: [sinkDir] },
      );
      // Nothing was written: no sink, no export file, the dataset's pointer unchanged.
      // (runExport is called without the staging of export-destination.ts here, so a refused
      // archive export may leave its empty file: never a line of data.)
      const written = readdirSync(sinkDir, { recursive: true }).map(String);
      const withData = written.filter((f) => /\.(jsonl|csv)$/.test(f) && statSync(join(sinkDir, f)).size > 0);
      expect([...written.filter((f) => /sink/.test(f)), ...withData]).toEqual([]);
      if (kind === 'parquet') expect(readFileSync(current, 'utf8')).toBe(currentBefore);
    });

    it('the refusals name the rule that was broken', async () => {
      const reasonOf = (where: string) =>
        exportWith(where, join(sinkDir, `r-${Math.random()}`)).then(
          () => 'accepted',
          (error) => error.details.reason,
        );
      expect(await reasonOf('true; select 1')).toBe('semicolon');
      expect(await reasonOf('session_id IN (SELECT 1)')).toBe('subquery');
      expect(await reasonOf('1=0) UNION ALL SELECT (1')).toBe('syntax');
      expect(await reasonOf('1=0 UNION ALL SELECT 1')).toBe('not-one-expression');
      expect(await reasonOf('etl_runs.run_id IS NULL')).toBe('other-table');
      expect(await reasonOf('ordinal > 0')).toBe('unknown-column');
    });

    it('honest filters still filter, a `;` inside a string literal included', async () => {
      const all = await withReadOnlyTarget(location, (c) =>
        runQuery(c, 'select session_id from sessions order by 1'),
      );
      const first = String(all.rows[0]!.session_id);
      for (const [where, expected] of [
        ['true', all.rows.length],
        ['false', 0],
        [`session_id = '${first.replaceAll("'", "''")}'`, 1],
        [`"SESSION_ID" = '${first.replaceAll("'", "''")}'`, 1],
        [`sessions.session_id <> '' AND title NOT LIKE '%;%'`, all.rows.length],
        ["title = 'no such title; drop table sessions'", 0],
      ] as const) {
        const out = join(sinkDir, `ok-${Math.random()}`);
        const files = await exportWith(where, out, ['sessions']);
        expect({ where, rows: files.find((f) => f.table === 'sessions')!.rows }).toEqual({
          where,
          rows: expected,
        });
        expect(existsSync(join(out, 'sessions.jsonl'))).toBe(true);
      }
    });
  });
}
