import { copyFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { withReadOnlyWarehouse } from '../../../src/load/duckdb/read-only-query.js';
import { readFigures, reportTables } from '../../../src/load/report/report-data.js';
import { listSessions, readSessions, sessionBatches } from '../../../src/load/report/report-sessions.js';
import { loadReportCorpus } from '../../helpers/report-warehouse.js';

let plain = '';
let withFacts = '';
let priced = '';

async function onWarehouse(path: string, sql: readonly string[]): Promise<void> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    for (const statement of sql) await connection.run(statement);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A warehouse without the fact tables, as the report meets one that never had them (renamed away: a drop would trim the file). */
const HIDE_FACT_TABLES = [
  'ALTER TABLE usage RENAME TO usage_hidden',
  'ALTER TABLE file_edits RENAME TO file_edits_hidden',
];

/** Known `usage` and `file_edits` rows in place of what the load derived, so the figures are fixed. */
const KNOWN_FACTS = [
  'DELETE FROM usage',
  `INSERT INTO usage (session_id, message_id, usage_ordinal, model, mode, input_tokens, output_tokens,
      cache_read_tokens, cache_write_tokens, measurement, representation, timestamp, timestamp_source)
    SELECT session_id, message_id, ordinal, 'usage-model', 'agent', 100, 10, 7, NULL, 'measured',
      'composer-global', timestamp, timestamp_source
    FROM messages WHERE role = 'assistant' AND input_tokens IS NOT NULL
    UNION ALL SELECT session_id, message_id, ordinal, 'usage-model', 'auto', 50, 5, NULL, 3, 'estimated',
      'composer-global', timestamp, timestamp_source
    FROM messages WHERE role = 'user'`,
  'DELETE FROM file_edits',
  `INSERT INTO file_edits (session_id, message_id, edit_ordinal, path, workspace_path, lines_added,
      lines_removed, user_decision, tool_name)
    VALUES ('s1', 'm1', 0, '/w/a.ts', '/home/dev/acme-api', 3, 1, 'accepted', 'edit_file'),
      ('s1', 'm2', 0, '/w/a.ts', '/home/dev/acme-api', 2, 0, 'rejected', 'edit_file'),
      ('s2', 'm1', 0, '/w/b.ts', '/home/dev/acme-web', 5, 5, 'accepted', 'search_replace')`,
];

/** Two currencies for one model, split in time, so the same model and measurement is costed in each. */
const PRICES = [
  `INSERT INTO model_prices VALUES
    ('usage-model', TIMESTAMPTZ '2000-01-01 00:00:00+00', 'USD', 1000, 2000, 500, NULL),
    ('usage-model', TIMESTAMPTZ '2025-10-15 00:00:00+00', 'EUR', 3000, 0, 0, 10000),
    ('other-model', TIMESTAMPTZ '2000-01-01 00:00:00+00', 'USD', 1, 1, 1, 1)`,
  // Unpriced: a model without a price, and a priced model at an unknown time.
  ...[
    ['unpriced-model', 90, 'timestamp', 'timestamp_source'],
    ['usage-model', 91, "TIMESTAMPTZ '1970-01-01 00:00:00+00'", "'unknown'"],
  ].map(
    ([model, ordinal, time, source]) => `INSERT INTO usage (session_id, message_id, usage_ordinal, model,
      input_tokens, measurement, representation, timestamp, timestamp_source)
    SELECT session_id, message_id, ${ordinal}, '${model}', ${ordinal === 90 ? 5 : 7}, 'measured',
      'composer-global', ${time}, ${source} FROM messages WHERE role = 'user' ORDER BY session_id, ordinal LIMIT 1`,
  ),
];

beforeAll(async () => {
  const loaded = loadReportCorpus('duckdb').slice('duckdb:'.length);
  plain = `${loaded}.plain.duckdb`;
  withFacts = `${loaded}.facts.duckdb`;
  priced = `${loaded}.priced.duckdb`;
  copyFileSync(loaded, plain);
  copyFileSync(loaded, withFacts);
  await onWarehouse(plain, HIDE_FACT_TABLES);
  await onWarehouse(withFacts, KNOWN_FACTS);
  copyFileSync(loaded, priced);
  await onWarehouse(priced, [...KNOWN_FACTS, ...PRICES, 'CHECKPOINT']);
}, 120_000);

describe('report figures', () => {
  it('without usage and file_edits: tokens from messages, files from v_file_touches', async () => {
    const figures = await withReadOnlyWarehouse(plain, readFigures);
    expect(figures.tables).toEqual({ usage: false, fileEdits: false, prices: false });
    expect(figures.costs).toEqual([]);
    expect(figures.totals).toMatchObject({ sessions: 18, messages: 57, workspaces: 2 });
    expect(figures.activity.map((r) => r.day)).toContain('2025-10-14');
    const sonnet = figures.models.find((r) => r.model === 'claude-4-sonnet');
    expect(sonnet).toMatchObject({ measurement: 'messages', input_tokens: 17328, output_tokens: 2143 });
    expect(figures.files[0]).toMatchObject({ count: 4, lines_added: null });
    expect(figures.workspaces.map((r) => r.edits)).toEqual([null, null]);
    expect(figures.tools.find((r) => r.tool === 'run_terminal_cmd')).toMatchObject({ calls: 6, failed: 5 });
  });

  it('with usage and file_edits: tokens by model and measurement, files and workspaces from the edits', async () => {
    const figures = await withReadOnlyWarehouse(withFacts, readFigures);
    expect(figures.tables).toEqual({ usage: true, fileEdits: true, prices: false });
    expect(figures.costs).toEqual([]);
    expect(figures.models[0]!.cost).toBeUndefined();
    expect(figures.models.map((r) => [r.model, r.measurement, r.records])).toEqual([
      ['usage-model', 'measured', 17],
      ['usage-model', 'estimated', 20],
    ]);
    expect(figures.models[0]).toMatchObject({
      input_tokens: 1700,
      cache_read_tokens: 119,
      cache_write_tokens: null,
    });
    expect(figures.files).toEqual([
      { file: '/w/a.ts', count: 2, sessions: 1, lines_added: 5, lines_removed: 1 },
      { file: '/w/b.ts', count: 1, sessions: 1, lines_added: 5, lines_removed: 5 },
    ]);
    expect(figures.workspaces.map((r) => [r.workspace, r.edits])).toEqual([
      ['/home/dev/acme-api', 2],
      ['/home/dev/acme-web', 1],
    ]);
    const list = await withReadOnlyWarehouse(withFacts, (c) => listSessions(c, 100, true));
    expect(list.rows.find((r) => r.title === 'Refactor module 0')).toMatchObject({ input_tokens: 150 });
  });

  it('with a price table: cost per model and currency, never summed across currencies; unpriced rows kept', async () => {
    const figures = await withReadOnlyWarehouse(priced, readFigures);
    expect(figures.tables).toEqual({ usage: true, fileEdits: true, prices: true });
    expect(figures.models.map((r) => [r.model, r.measurement, r.currency, r.records, r.cost])).toEqual([
      ['usage-model', 'measured', 'USD', 16, expect.closeTo(1.976, 9)],
      ['usage-model', 'estimated', 'USD', 18, expect.closeTo(1.08, 9)],
      ['usage-model', 'estimated', 'EUR', 2, expect.closeTo(0.36, 9)],
      ['usage-model', 'measured', 'EUR', 1, expect.closeTo(0.3, 9)],
      ['usage-model', 'measured', null, 1, null],
      ['unpriced-model', 'measured', null, 1, null],
    ]);
    // 1,600 input at 1,000/M + 160 output at 2,000/M + 112 cache reads at 500/M.
    expect(figures.models[0]).toMatchObject({
      input_tokens: 1600,
      output_tokens: 160,
      cache_read_tokens: 112,
    });
    expect(figures.costs).toEqual([
      { currency: 'EUR', records: 3, cost: expect.closeTo(0.66, 9) },
      { currency: 'USD', records: 34, cost: expect.closeTo(3.056, 9) },
      { currency: null, records: 2, cost: null },
    ]);
  });

  it('the catalogue check sees only the tables the warehouse has', async () => {
    expect(await withReadOnlyWarehouse(plain, reportTables)).toEqual({
      usage: false,
      fileEdits: false,
      prices: false,
    });
  });

  it('lists the most recently updated sessions first, up to the cap, and counts them all', async () => {
    const list = await withReadOnlyWarehouse(plain, (c) => listSessions(c, 3, false));
    expect(list.total).toBe(18);
    expect(list.rows.map((r) => r.title)).toEqual([
      'Escape <b>check</b> & </script>',
      'Rename the helper module',
      'Add a /health endpoint',
    ]);
  });

  it('a session holds every message whole, its thinking, and tool calls with long text capped and counted', async () => {
    const detail = await withReadOnlyWarehouse(plain, async (c) => {
      const list = await listSessions(c, 1, false);
      const id = String(list.rows[0]!.session_id);
      return (await readSessions(c, [id])).get(id)!;
    });
    expect(detail.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(detail.messages[0]!.content).toContain('<script>window.__pwned = 1</script>');
    expect(detail.messages[1]!.thinking).toBe('</script><script>window.__pwned = 3</script>');
    const [tool] = detail.messages[1]!.tools as { name: string; result: { text: string; omitted: number } }[];
    expect(tool!.name).toBe('read_file');
    expect(tool!.result.text).toHaveLength(4000);
    expect(tool!.result.omitted).toBe(JSON.stringify({ contents: 'x'.repeat(9000) }).length - 4000);
  });

  it('reads sessions in batches bounded by session and message counts, each session whole', async () => {
    const rows = (counts: number[]) => counts.map((message_count) => ({ message_count }));
    expect(sessionBatches(rows([1, 2, 3])).map((b) => b.length)).toEqual([3]);
    expect(sessionBatches(rows([15_000, 4_000, 6_000, 30_000, 1])).map((b) => b.length)).toEqual([
      2, 1, 1, 1,
    ]);
    expect(sessionBatches(rows(Array(250).fill(1))).map((b) => b.length)).toEqual([100, 100, 50]);
    const details = await withReadOnlyWarehouse(plain, async (c) => {
      const list = await listSessions(c, 100, false);
      return readSessions(
        c,
        list.rows.map((r) => String(r.session_id)),
      );
    });
    expect([...details.values()].reduce((n, d) => n + d.messages.length, 0)).toBe(57);
  });
});
