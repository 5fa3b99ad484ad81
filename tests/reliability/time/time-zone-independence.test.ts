import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTimeCorpus } from '../../../fixtures/time/time-corpus.js';
import { LEDGER_TABLES } from '../../../schemas/ledger-tables.js';
import { ROW_TABLES } from '../../../schemas/tables.js';
import { EXPORT_FORMATS } from '../../../src/load/export/export-formats.js';
import { ANALYST_VIEWS } from '../../../src/load/views/analyst-views.js';
import { queryRows } from '../../helpers/query-warehouse.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';

const ZONES = ['UTC', 'America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Chatham'];

/** Times at a day boundary in every zone above, in each accepted form, plus a zoneless string. */
const TOKENS = [
  '"2026-01-31T23:30:00.000Z"',
  '"2026-02-01T05:00:00+05:30"',
  '1769902200000',
  '"1769902200000"',
  '"2026-01-31T23:30:00.000"',
  '"March 8"',
];

const warehouses = new Map<string, string>();
const queried = new Map<string, string>();
/** Per zone: every table, view and digest as `etl query` prints it on a machine of that zone. */
const printed = new Map<string, string>();
/** Per zone: `format/relative path → sha256` of every exported file. */
const exported = new Map<string, Record<string, string>>();
/** Per zone: `table/partition → sha256` of the Parquet target's content files. */
const datasets = new Map<string, Record<string, string>>();

/** Columns that name the run or the wall clock of the run, different for every load anyway. */
const RUN_BOOKKEEPING = /(^|_)run(_|$)|^(started_at|finished_at|owner_pid|seq)$/;

function everythingSql(): string {
  const tables = [...ROW_TABLES, ...LEDGER_TABLES].map((table) => {
    const columns = table.columnNames.filter((c) => !RUN_BOOKKEEPING.test(c));
    return [table.name, `SELECT ${columns.join(', ')} FROM ${table.name}`];
  });
  const views = ANALYST_VIEWS.map((view) => [view.name, `SELECT * FROM ${view.name}`]);
  return `SELECT ${[...tables, ...views]
    .map(([name, select]) => `(SELECT to_json(list(t ORDER BY t)) FROM (${select}) t) AS ${name}`)
    .join(',\n')}`;
}

function hashFiles(dir: string, keep: (path: string) => string | null): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const entry of readdirSync(d)) {
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const key = keep(relative(dir, path));
        if (key !== null) out[key] = createHash('sha256').update(readFileSync(path)).digest('hex');
      }
    }
  };
  walk(dir);
  return out;
}

beforeAll(() => {
  const root = tempDir('etl-tz-');
  const { sources } = buildTimeCorpus(join(root, 'src'), TOKENS);
  for (const zone of ZONES) {
    const warehouse = join(root, `${zone.replace('/', '-')}.duckdb`);
    const run = runCli(['run', '--json', ...sources, '--target', `duckdb:${warehouse}`], { TZ: zone });
    if (run.code !== 0) throw new Error(`${zone}: ${run.stderr}`);
    warehouses.set(zone, warehouse);
    const query = runCli(
      [
        'query',
        '--json',
        '--target',
        `duckdb:${warehouse}`,
        `SELECT session_id, epoch(created_at::TIMESTAMPTZ) AS created, CAST(created_at::TIMESTAMPTZ AS DATE) AS day
         FROM sessions ORDER BY session_id`,
      ],
      { TZ: zone },
    );
    if (query.code !== 0) throw new Error(`${zone}: ${query.stderr}`);
    queried.set(zone, query.stdout);
    const all = runCli(['query', '--json', '--target', `duckdb:${warehouse}`, everythingSql()], { TZ: zone });
    if (all.code !== 0) throw new Error(`${zone}: ${all.stderr}`);
    const times = runCli(
      [
        'query',
        '--json',
        '--target',
        `duckdb:${warehouse}`,
        `SELECT s.session_id, s.created_at, s.updated_at, list(m.timestamp ORDER BY m.ordinal) AS messages
         FROM sessions s LEFT JOIN messages m USING (session_id) GROUP BY ALL ORDER BY s.session_id`,
      ],
      { TZ: zone },
    );
    if (times.code !== 0) throw new Error(`${zone}: ${times.stderr}`);
    printed.set(zone, all.stdout + times.stdout);
    const files: Record<string, string> = {};
    for (const format of EXPORT_FORMATS) {
      const out = join(root, `export-${format}-${zone.replace('/', '-')}`);
      const run = runCli(
        ['export', '--json', '--format', format, '--out', out, '--target', `duckdb:${warehouse}`],
        { TZ: zone },
      );
      if (run.code !== 0) throw new Error(`${zone} ${format}: ${run.stderr}`);
      if (statSync(out).isDirectory())
        Object.assign(
          files,
          hashFiles(out, (path) => (path.startsWith('diagnostics') ? null : `${format}/${path}`)),
        );
      else files[format] = createHash('sha256').update(readFileSync(out)).digest('hex');
    }
    exported.set(zone, files);
    const dataset = join(root, `dataset-${zone.replace('/', '-')}`);
    const parquet = runCli(['run', '--json', ...sources, '--target', `parquet:${dataset}`], { TZ: zone });
    if (parquet.code !== 0) throw new Error(`${zone} parquet: ${parquet.stderr}`);
    const state = join(dataset, 'states', readFileSync(join(dataset, 'CURRENT'), 'utf8').trim());
    datasets.set(
      zone,
      hashFiles(state, (path) => {
        const [table, partition] = path.split('/');
        return ROW_TABLES.some((t) => t.name === table && t.name !== 'diagnostics') &&
          partition?.startsWith('bucket=')
          ? `${table}/${partition}`
          : null;
      }),
    );
  }
}, 600_000);

async function dump(warehouse: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of ROW_TABLES) {
    const select = table.name === 'diagnostics' ? 'SELECT * EXCLUDE (run_id, seq)' : 'SELECT *';
    out[table.name] = JSON.stringify(await queryRows(warehouse, `${select} FROM ${table.name} ORDER BY ALL`));
  }
  for (const view of ANALYST_VIEWS)
    out[view.name] = JSON.stringify(await queryRows(warehouse, `SELECT * FROM ${view.name} ORDER BY ALL`));
  return out;
}

describe('machine-independent results: the same sources under any TZ', () => {
  it('give byte-identical tables, views and view digests under UTC, Los Angeles, Kolkata and Chatham', async () => {
    const [first, ...rest] = ZONES;
    const reference = await dump(warehouses.get(first!)!);
    expect(reference.sessions).toContain('view_digest');
    for (const zone of rest) {
      const other = await dump(warehouses.get(zone)!);
      for (const name of Object.keys(reference))
        expect(other[name], `${zone}: ${name}`).toBe(reference[name]);
    }
  });

  it('etl query prints every table, view and digest with the same bytes on machines of every zone', () => {
    const [first, ...rest] = ZONES;
    const reference = printed.get(first!)!;
    expect(reference).toContain('view_digest');
    expect(reference).toContain('2026-01-31 23:30:00+00');
    for (const zone of rest) expect(printed.get(zone), zone).toBe(reference);
  });

  it('every export format writes the same bytes, and the Parquet target the same data files, in every zone', () => {
    const [first, ...rest] = ZONES;
    const reference = exported.get(first!)!;
    for (const format of EXPORT_FORMATS)
      expect(Object.keys(reference).some((k) => k.startsWith(format))).toBe(true);
    const dataset = datasets.get(first!)!;
    expect(Object.keys(dataset).some((k) => k.startsWith('messages/'))).toBe(true);
    for (const zone of rest) {
      expect(exported.get(zone), zone).toEqual(reference);
      expect(datasets.get(zone), zone).toEqual(dataset);
    }
  });

  it('a zoneless ISO string is unknown, never read in the machine zone', async () => {
    const rows = await queryRows(
      warehouses.get('America/Los_Angeles')!,
      "SELECT count(*) AS n FROM diagnostics WHERE code = 'TIME_VALUE_UNKNOWN' AND (details->>'reason') = 'zoneless'",
    );
    expect(Number(rows[0]!.n)).toBeGreaterThan(0);
  });

  it('etl query runs in UTC unless asked otherwise: the same epochs and days on every machine', () => {
    const [first, ...rest] = ZONES;
    const reference = queried.get(first!)!;
    expect(reference).toContain('"day":"2026-01-31"');
    for (const zone of rest) expect(queried.get(zone), zone).toBe(reference);
  });
});
