import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTimeCorpus } from '../../../fixtures/time/time-corpus.js';
import { ROW_TABLES } from '../../../schemas/tables.js';
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
  }
}, 300_000);

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
