import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runQuery, withReadOnlyWarehouse } from '../../../src/load/duckdb/read-only-query.js';
import { ANALYST_VIEWS } from '../../../src/load/views/analyst-views.js';
import { runCli } from '../../helpers/run-cli.js';
import { loadSample } from '../../helpers/sample-warehouse.js';

type Rows = Record<string, unknown>[];

/** Each cookbook question with what the sample data must answer (bigints arrive as JSON strings). */
const EXPECTED: Record<string, (rows: Rows) => void> = {
  'What did I work on most recently?': (rows) =>
    expect(rows.map((r) => r.title)).toEqual([
      'Rename the helper module',
      'Add a /health endpoint',
      'Why is the build slow?',
    ]),
  'Which conversations were the longest?': (rows) =>
    expect(rows[0]).toMatchObject({ title: 'Add a /health endpoint', message_count: 6, user_messages: 2 }),
  'How much did I use Cursor each day?': (rows) =>
    expect(rows).toEqual([
      { day: '2025-10-13', sessions: 1, user_messages: 1, assistant_messages: 2, tool_calls: 1 },
      { day: '2025-10-14', sessions: 2, user_messages: 3, assistant_messages: 6, tool_calls: 3 },
    ]),
  'How much did I use Cursor each day, in a time zone I choose?': (rows) =>
    expect(rows).toEqual([
      { day_new_york: '2025-10-13', messages: 3 },
      { day_new_york: '2025-10-14', messages: 9 },
    ]),
  'Which tools does the agent call most, and how often do they fail?': (rows) =>
    expect(rows.find((r) => r.tool === 'grep')).toMatchObject({
      calls: 1,
      failures: 1,
      failure_pct: 100,
    }),
  'Which files does the agent touch most?': (rows) =>
    expect(rows).toEqual([
      {
        file: '/home/dev/acme-api/src/app.ts',
        touches: 2,
        sessions: 1,
        tools: ['edit_file', 'read_file'],
      },
    ]),
  'How many tokens did each model consume?': (rows) =>
    expect(rows).toEqual([
      {
        model: 'claude-4-sonnet',
        messages: 4,
        messages_with_tokens: 2,
        input_tokens: 11218,
        output_tokens: 813,
      },
      { model: 'gpt-5', messages: 1, messages_with_tokens: 0, input_tokens: null, output_tokens: null },
    ]),
  'Read one conversation as a transcript': (rows) => {
    expect(rows.map((r) => r.role)).toEqual([
      'user',
      'assistant',
      'assistant',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(rows[1]!.text).toBe('[1 tool call(s)]');
  },
  'Where did I ask about something? (full-text search)': (rows) =>
    expect(rows.map((r) => [r.position, r.role])).toEqual([
      [0, 'user'],
      [3, 'assistant'],
      [5, 'assistant'],
    ]),
  'How long does the agent take to answer?': (rows) =>
    expect(rows).toEqual([{ answered_prompts: 4, median_seconds: 11, max_seconds: 15 }]),
  'Which tool calls failed, and in which conversation?': (rows) =>
    expect(rows).toEqual([
      {
        title: 'Rename the helper module',
        tool: 'grep',
        status: 'error',
        timestamp: '2025-10-14 10:30:10+00',
      },
    ]),
  'Which sessions are only partially archived?': (rows) => expect(rows).toEqual([]),
  'At what hour of the day do I start conversations?': (rows) =>
    expect(rows).toEqual([
      { hour_utc: 9, sessions: 2 },
      { hour_utc: 10, sessions: 1 },
    ]),
  'Which workspaces see the most activity?': (rows) => {
    expect(rows.reduce((n, r) => n + Number(r.sessions), 0)).toBe(3);
    expect(rows.reduce((n, r) => n + Number(r.messages), 0)).toBe(12);
  },
  'What happened in one project folder, on any machine?': (rows) =>
    expect(rows).toEqual([
      { workspace: '/home/dev/acme-api', sessions: 2, messages: 9, tool_calls: 3, sources: 1 },
    ]),
  'How do tool calls break down per day and status?': (rows) =>
    expect(rows.map((r) => [r.day, r.tool, r.status, r.calls])).toEqual([
      ['2025-10-13', 'run_terminal_cmd', 'completed', 1],
      ['2025-10-14', 'edit_file', 'completed', 1],
      ['2025-10-14', 'grep', 'error', 1],
      ['2025-10-14', 'read_file', 'completed', 1],
    ]),
  "What share of each model's edits did I accept?": (rows) =>
    expect(rows).toEqual([
      { model: 'claude-4-sonnet', edits: 1, accepted: 1, rejected: 0, unknown: 0, acceptance_rate: 1 },
    ]),
  'Which 20 files changed most?': (rows) =>
    expect(rows).toEqual([
      {
        path: '/home/dev/acme-api/src/app.ts',
        workspace: '/home/dev/acme-api',
        edits: 1,
        lines_added: 1,
        lines_removed: 0,
        sessions: 1,
      },
    ]),
  'What did one conversation change, edit by edit?': (rows) =>
    expect(rows).toEqual([
      {
        message_ordinal: 2,
        edit_ordinal: 0,
        tool_name: 'edit_file',
        path: '/home/dev/acme-api/src/app.ts',
        lines_added: 1,
        lines_removed: 0,
        user_decision: 'accepted',
      },
    ]),
  'What did each model cost per month?': (rows) =>
    expect(rows).toEqual([
      {
        month: '2025-10',
        model: 'claude-4-sonnet',
        measurement: 'measured',
        currency: 'USD',
        input_tokens: 11218,
        output_tokens: 813,
        cost: 0.045849,
        unpriced_rows: 0,
      },
    ]),
  'How many tokens did each workspace use?': (rows) =>
    expect(rows).toEqual([
      {
        workspace: '/home/dev/acme-api',
        measurement: 'measured',
        sessions: 1,
        input_tokens: 11218,
        output_tokens: 813,
        cache_read_tokens: null,
      },
    ]),
  // The sample has no subagents (tests/sync/subagent-links.test.ts loads chains).
  'Which subagents did a conversation spawn?': (rows) => expect(rows).toEqual([]),
};

function cookbookQueries(): [string, string][] {
  const markdown = readFileSync('docs/sql-cookbook.md', 'utf8');
  return [...markdown.matchAll(/^### (.+)\n\n```sql\n([\s\S]*?)```/gm)].map((m) => [m[1]!, m[2]!]);
}

/** The cookbook's sample price table, imported as a reader would. */
function importSamplePrices(root: string, target: string): void {
  const csv = /^```csv\n([\s\S]*?)```/m.exec(readFileSync('docs/sql-cookbook.md', 'utf8'))![1]!;
  const file = join(root, 'prices.csv');
  writeFileSync(file, csv);
  const run = runCli(['prices', 'import', file, '--target', target]);
  if (run.code !== 0) throw new Error(run.stderr);
}

describe('analyst views and the SQL cookbook on the sample warehouse', () => {
  let path: string;
  beforeAll(() => {
    const sample = loadSample('duckdb');
    importSamplePrices(sample.root, sample.target);
    path = sample.target.slice('duckdb:'.length);
  });

  it('the cookbook has at least a dozen questions and each one has an expectation here', () => {
    const headings = cookbookQueries().map(([heading]) => heading);
    expect(headings.length).toBeGreaterThanOrEqual(12);
    expect(headings.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(cookbookQueries())('answers: %s', async (heading, sql) => {
    const result = await withReadOnlyWarehouse(path, (connection) => runQuery(connection, sql));
    EXPECTED[heading]!(result.rows);
  });

  const MACHINE_INDEPENDENT = [
    'How much did I use Cursor each day?',
    'How much did I use Cursor each day, in a time zone I choose?',
    'How do tool calls break down per day and status?',
    'At what hour of the day do I start conversations?',
    'What happened in one project folder, on any machine?',
    'What did each model cost per month?',
    'How many tokens did each workspace use?',
  ];
  it.each(MACHINE_INDEPENDENT)(
    'per-day and per-workspace answers do not depend on the session time zone: %s',
    async (heading) => {
      const sql = new Map(cookbookQueries()).get(heading)!;
      for (const zone of ['Pacific/Chatham', 'America/Los_Angeles']) {
        const result = await withReadOnlyWarehouse(path, (connection) => runQuery(connection, sql), {
          settings: { TimeZone: zone },
        });
        EXPECTED[heading]!(result.rows);
      }
    },
  );

  it('every analyst view exists in the warehouse and is documented in the cookbook', async () => {
    const markdown = readFileSync('docs/sql-cookbook.md', 'utf8');
    const names = await withReadOnlyWarehouse(path, async (connection) =>
      (
        await runQuery(
          connection,
          "SELECT view_name FROM duckdb_views() WHERE view_name LIKE 'v\\_%' ESCAPE '\\'",
        )
      ).rows.map((r) => r.view_name),
    );
    for (const view of ANALYST_VIEWS) {
      expect(names).toContain(view.name);
      expect(markdown).toContain(`\`${view.name}\``);
    }
  });
});
