import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTimeCorpus } from '../../../fixtures/time/time-corpus.js';
import { ANALYST_VIEWS } from '../../../src/load/views/analyst-views.js';
import { queryRows } from '../../helpers/query-warehouse.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';

let warehouse = '';

beforeAll(() => {
  const root = tempDir('etl-time-views-');
  // Every source with one time field holding text: sessions and messages whose times are unknown.
  const { sources } = buildTimeCorpus(join(root, 'src'), ['"March 8"']);
  warehouse = join(root, 'w.duckdb');
  const run = runCli(['run', '--json', ...sources, '--target', `duckdb:${warehouse}`]);
  if (run.code !== 0) throw new Error(run.stderr);
}, 120_000);

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

describe('views tell the truth: unknown times are NULL in every view', () => {
  it('base tables keep the contract placeholders: "finally the Unix epoch (unknown)" and epoch-unknown', async () => {
    const [row] = await queryRows(
      warehouse,
      `SELECT count(*) FILTER (WHERE timestamp_source = 'unknown' AND epoch_ms(timestamp) = 0) AS messages,
        (SELECT count(*) FROM sessions WHERE created_at_source = 'epoch-unknown' AND epoch_ms(created_at) = 0)
          AS sessions
      FROM messages`,
    );
    expect(Number(row!.messages)).toBeGreaterThan(0);
    expect(Number(row!.sessions)).toBeGreaterThan(0);
  });

  for (const view of ANALYST_VIEWS) {
    it(`${view.name} shows no 1970 time or day`, async () => {
      const rows = await queryRows(warehouse, `SELECT * FROM ${view.name}`);
      expect(rows.length).toBeGreaterThan(0);
      const epochValues = rows.flatMap((row) =>
        Object.entries(row).filter(([, value]) => /^1970-01-01/.test(text(value))),
      );
      expect(epochValues).toEqual([]);
    });
  }

  it('v_daily_activity, v_tool_usage and v_file_edits put unknown times under a NULL day', async () => {
    for (const name of ['v_daily_activity', 'v_tool_usage', 'v_file_edits']) {
      const [row] = await queryRows(warehouse, `SELECT count(*) AS n FROM ${name} WHERE day IS NULL`);
      expect(Number(row!.n), name).toBeGreaterThan(0);
    }
  });

  it('v_usage and v_usage_daily put usage of unknown time under a NULL day; v_usage_cost prices none of it', async () => {
    for (const name of ['v_usage', 'v_usage_daily']) {
      const [row] = await queryRows(warehouse, `SELECT count(*) AS n FROM ${name} WHERE day IS NULL`);
      expect(Number(row!.n), name).toBeGreaterThan(0);
    }
    const [row] = await queryRows(
      warehouse,
      'SELECT count(*) FILTER (WHERE timestamp IS NULL AND day IS NOT NULL) AS mixed FROM v_usage',
    );
    expect(Number(row!.mixed)).toBe(0);
  });

  it('v_sessions: a duration exists only when both ends are known, and is never negative', async () => {
    const rows = await queryRows(
      warehouse,
      `SELECT count(*) FILTER (WHERE duration_seconds IS NOT NULL AND (created_at IS NULL OR updated_at IS NULL))
          AS half_known,
        count(*) FILTER (WHERE duration_seconds < 0) AS negative,
        count(*) FILTER (WHERE created_at IS NULL) AS unknown_start
      FROM v_sessions`,
    );
    expect(rows[0]).toMatchObject({ half_known: 0, negative: 0 });
    expect(Number(rows[0]!.unknown_start)).toBeGreaterThan(0);
  });

  it('first/last aggregates ignore unknown times (v_model_usage, v_workspace_activity)', async () => {
    const [model] = await queryRows(
      warehouse,
      `SELECT first_used, last_used FROM v_model_usage WHERE model = 'Example Model'`,
    );
    expect(model).toEqual({ first_used: null, last_used: null });
    const workspaces = await queryRows(warehouse, 'SELECT first_session FROM v_workspace_activity');
    expect(workspaces.some((w) => w.first_session !== null)).toBe(true);
  });
});
