/**
 * Engines other than DuckDB read the Parquet dataset and `etl export --format parquet` as they are:
 * PyArrow and Polars, in a virtual environment created (once, under the ignored `.venv/`) from the
 * package index pip is configured with. No usable Python fails the test; it is never skipped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_TABLES } from '../../../schemas/ledger-tables.js';
import type { ColumnKind } from '../../../schemas/table-definition.js';
import { ROW_TABLES } from '../../../schemas/tables.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';
import { loadSample } from '../../helpers/sample-warehouse.js';

const VENV = resolve('.venv/interop');
const PYTHON = join(VENV, 'bin', 'python');
const SCRIPT = resolve('tests/helpers/engine-interop.py');

function sh(command: string, args: string[], cwd?: string): string {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 600_000, cwd });
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.error ?? result.status}): ${result.stderr}`,
    );
  return result.stdout;
}

/** The venv with Polars and PyArrow; created or completed when missing, never a skip. */
function interopPython(): string {
  const ready = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import polars, pyarrow']).status === 0;
  if (!ready) {
    sh('python3', ['-m', 'venv', VENV]);
    sh(PYTHON, ['-m', 'pip', 'install', '--quiet', 'polars', 'pyarrow']);
  }
  return PYTHON;
}

interface EngineView {
  rows: number;
  types: Record<string, string>;
  partitions: string[] | null;
}
type Seen = Record<string, { pyarrow: EngineView; polars: EngineView }>;

/** What each engine must call a column DuckDB reads back as this type. */
const ENGINE_TYPES: Record<string, { pyarrow: string; polars: string }> = {
  VARCHAR: { pyarrow: 'string', polars: 'String' },
  INTEGER: { pyarrow: 'int32', polars: 'Int32' },
  BIGINT: { pyarrow: 'int64', polars: 'Int64' },
  BOOLEAN: { pyarrow: 'bool', polars: 'Boolean' },
  DOUBLE: { pyarrow: 'double', polars: 'Float64' },
  'TIMESTAMP WITH TIME ZONE': {
    pyarrow: 'timestamp[us, tz=UTC]',
    polars: "Datetime(time_unit='us', time_zone='UTC')",
  },
};

/** The type DuckDB must read from the files for a schema column: JSON is stored as text. */
const FILE_TYPE: Record<ColumnKind, string> = {
  text: 'VARCHAR',
  json: 'VARCHAR',
  int: 'INTEGER',
  bigint: 'BIGINT',
  double: 'DOUBLE',
  bool: 'BOOLEAN',
  timestamp: 'TIMESTAMP WITH TIME ZONE',
};

const TABLES = new Map([...ROW_TABLES, ...LEDGER_TABLES].map((t) => [t.name as string, t]));

describe('PyArrow and Polars read the Parquet dataset and export as DuckDB does', {
  timeout: 900_000,
}, () => {
  let seen: { dataset: Seen; exports: Seen[] };
  let root: string;
  let state: string;
  let exportDir: string;
  let feedDir: string;

  beforeAll(() => {
    const python = interopPython();
    const sample = loadSample('parquet');
    root = sample.target.slice('parquet:'.length);
    exportDir = join(tempDir(), 'export');
    feedDir = join(tempDir(), 'feed');
    const base = ['export', '--json', '--format', 'parquet', '--target', sample.target];
    const tables = ['--tables', [...TABLES.keys()].join(',')];
    for (const args of [
      [...base, ...tables, '--out', exportDir],
      [...base, '--changes', '--consumer', 'interop', '--out', feedDir],
    ]) {
      const result = runCli(args);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
    // The change feed export published its cursor as a new state: the one every engine reads.
    state = sh('cat', [join(root, 'CURRENT')]).trim();
    seen = JSON.parse(sh(python, [SCRIPT, root, exportDir, feedDir])) as typeof seen;
  }, 900_000);

  async function duckdb(from: string, key: string | null) {
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const source = key
        ? `read_parquet('${from}/**/*.parquet', hive_partitioning = true, hive_types = {'${key}': VARCHAR})`
        : `read_parquet('${from}')`;
      const count = await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${source}`);
      const columns = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`);
      const partitions = key
        ? (await connection.runAndReadAll(`SELECT DISTINCT ${key} FROM ${source} ORDER BY 1`))
            .getRows()
            .map((r) => String(r[0]))
        : null;
      return {
        rows: Number(count.getRowObjects()[0]!.n),
        types: Object.fromEntries(
          columns.getRowObjects().map((c) => [String(c.column_name), String(c.column_type)]),
        ),
        partitions,
      };
    } finally {
      connection.closeSync();
    }
  }

  function expectSameAsDuckDb(
    table: string,
    engines: Seen[string],
    duck: Awaited<ReturnType<typeof duckdb>>,
  ) {
    for (const engine of ['pyarrow', 'polars'] as const) {
      const view = engines[engine];
      expect(view.rows, `${engine} ${table} rows`).toBe(duck.rows);
      expect(view.partitions, `${engine} ${table} partitions`).toEqual(duck.partitions);
      expect(view.types, `${engine} ${table} types`).toEqual(
        Object.fromEntries(Object.entries(duck.types).map(([c, t]) => [c, ENGINE_TYPES[t]![engine]])),
      );
    }
    const definition = TABLES.get(table);
    if (definition === undefined) return;
    for (const [column, spec] of Object.entries(definition.columns))
      expect(duck.types[column], `${table}.${column}`).toBe(FILE_TYPE[(spec as { kind: ColumnKind }).kind]);
  }

  it('the published state: every table with files, its Hive partitions (bucket, run) discovered as text', async () => {
    const manifest = JSON.parse(sh('cat', [join(root, 'states', state, 'manifest.json')])) as {
      tables: Record<string, { partitionKey: string | null; files: unknown[] }>;
    };
    const listed = Object.entries(manifest.tables).filter(([, t]) => t.files.length > 0);
    expect(Object.keys(seen.dataset).sort()).toEqual(listed.map(([name]) => name).sort());
    expect(seen.dataset.sessions!.pyarrow.partitions!.length).toBeGreaterThan(1);
    for (const [name, table] of listed) {
      const dir = join(root, 'states', state, name);
      const duck = await duckdb(table.partitionKey ? dir : `${dir}/*.parquet`, table.partitionKey);
      const { [table.partitionKey ?? '']: _key, ...columns } = duck.types;
      expect(Object.keys(columns)).toEqual([...TABLES.get(name)!.columnNames]);
      expectSameAsDuckDb(name, seen.dataset[name]!, duck);
    }
  });

  it('etl export --format parquet, whole tables and a change feed: the same rows and types in every engine', async () => {
    for (const [dir, files] of [
      [exportDir, seen.exports[0]!],
      [feedDir, seen.exports[1]!],
    ] as const) {
      expect(Object.keys(files).length).toBeGreaterThan(0);
      for (const [name, engines] of Object.entries(files))
        expectSameAsDuckDb(name, engines, await duckdb(join(dir, `${name}.parquet`), null));
    }
    expect(seen.exports[1]!.changes!.polars.rows).toBe(3);
  });

  /** The first fenced block of `language` after `heading` in docs/parquet.md. */
  function recipe(heading: string, language: string): string {
    const doc = readFileSync('docs/parquet.md', 'utf8');
    const after = doc.slice(doc.indexOf(heading));
    const open = after.indexOf(`\`\`\`${language}\n`) + language.length + 4;
    return after.slice(open, after.indexOf('```', open));
  }

  it("docs/parquet.md's DuckDB and PyArrow/Polars recipes run and count what DuckDB counts", async () => {
    const dir = tempDir();
    symlinkSync(root, join(dir, 'archive'));
    const printed = sh(PYTHON, ['-c', recipe('**PyArrow and Polars**', 'python')], dir);
    expect(printed).toBe(`sessions 3\nmessages ${seen.dataset.messages!.polars.rows}\n`);
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const statements = recipe('**DuckDB**', 'sql').replaceAll("'archive/", `'${root}/`).split(';');
      await connection.run(statements[0]!);
      const counted = await connection.runAndReadAll(statements[1]!);
      expect(Number(counted.getRowObjects()[0]!.messages)).toBe(seen.dataset.messages!.pyarrow.rows);
    } finally {
      connection.closeSync();
    }
  });
});
