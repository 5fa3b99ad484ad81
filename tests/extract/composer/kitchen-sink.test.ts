import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildKitchenSink, KS, KS_PATHS, T0 } from '../../../fixtures/composer/kitchen-sink.js';
import { queryRows } from '../../helpers/query-warehouse.js';
import { runCli, tempDir } from '../../helpers/run-cli.js';

let warehouse: string;
let diagnostics: { code: string; sessionId?: string }[];

const messages = (sessionId: string) =>
  queryRows(
    warehouse,
    `select message_id, role, content, identity_origin, timestamp_source, cast(epoch_ms(timestamp) as double) as ms,
            on_active_branch, parent_message_id, is_corrupted
       from messages where session_id = '${sessionId}' order by ordinal`,
  );
const session = async (sessionId: string) =>
  (await queryRows(warehouse, `select * from sessions where session_id = '${sessionId}'`))[0]!;

beforeAll(() => {
  const root = tempDir('etl-kitchen-');
  buildKitchenSink(join(root, 'User'));
  warehouse = join(root, 'w.duckdb');
  const result = runCli([
    'run',
    '--json',
    '--cursor-user-dir',
    join(root, 'User'),
    '--target',
    `duckdb:${warehouse}`,
  ]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  diagnostics = JSON.parse(result.stdout).diagnostics;
});

describe('Composer kitchen-sink tree', () => {
  it('loads every session with no crash; case-variant IDs are two sessions', async () => {
    const ids = (await queryRows(warehouse, 'select session_id from sessions order by session_id')).map(
      (r) => r.session_id,
    );
    expect(ids).toHaveLength(15);
    expect(ids).toContain(KS.caseUpper);
    expect(ids).toContain(KS.caseLower);
  });

  it('keeps rowid order with orphans, NULL / invalid JSON / bad UTF-8 bubbles flagged, identity v1', async () => {
    const rows = await messages(KS.quirky);
    expect(rows.map((r) => [r.message_id, r.identity_origin, r.is_corrupted])).toEqual([
      ['q-user-1', 'composer-native', false],
      ['q-orphan-3', 'composer-native', false],
      ['q-tool-2', 'composer-native', false],
      ['q-null', 'composer-native', true],
      ['q-invalid', 'composer-native', true],
      // "the source value was null/empty" → msg:<zero-based projection index>
      ['msg:5', 'composer-v0.16-index', false],
      // An absent field falls back to the key's bubble segment.
      ['q-missing-field', 'composer-native', false],
      ['msg:7', 'composer-v0.16-index', false],
      ['q-late-4', 'composer-native', false],
      ['q-bad-utf8', 'composer-native', true],
    ]);
    expect(rows.filter((r) => r.is_corrupted).every((r) => r.content === '[corrupted message]')).toBe(true);
  });

  it('on_active_branch follows fullConversationHeadersOnly; orphans are kept off the branch', async () => {
    const rows = await messages(KS.quirky);
    const onBranch = rows.filter((r) => r.on_active_branch).map((r) => [r.message_id, r.parent_message_id]);
    expect(onBranch).toEqual([
      ['q-user-1', null],
      ['q-tool-2', 'q-user-1'],
      ['q-late-4', 'q-tool-2'],
    ]);
  });

  it('timestamps: created-at, timing, then inferred values that never chain', async () => {
    const rows = await messages(KS.quirky);
    expect(rows[0]).toMatchObject({ timestamp_source: 'composer-created-at', ms: T0 + 1_000 });
    expect(rows[1]).toMatchObject({ timestamp_source: 'composer-timing', ms: T0 + 2_000 });
    // No later direct time exists, so each gap takes the previous direct time, not an inferred one.
    expect(
      rows.slice(2).every((r) => r.timestamp_source === 'inferred-previous' && r.ms === T0 + 2_000),
    ).toBe(true);
  });

  it('an undecodable bubble makes the session explicitly partial with SOURCE_ENCODING_INVALID', async () => {
    expect(await session(KS.quirky)).toMatchObject({
      fidelity: 'partial',
      reason_codes: '["source-partial"]',
    });
    expect(diagnostics.some((d) => d.code === 'SOURCE_ENCODING_INVALID' && d.sessionId === KS.quirky)).toBe(
      true,
    );
  });

  it('an error-only tool bubble keeps its full call: error status, raw params, decision', async () => {
    const [tool] = await queryRows(warehouse, `select * from tool_calls where message_id = 'q-tool-2'`);
    expect(tool).toMatchObject({
      name: 'run_terminal_cmd',
      status: 'error',
      params: '{"_raw":"not json at all"}',
      result: '{"output":"permission denied"}',
      error: 'permission denied',
      user_decision: 'rejected',
      tool_id_origin: 'tool-v1',
    });
  });

  it('a NULL composerData keeps the messages; session times fall back to epoch-unknown', async () => {
    expect(await session(KS.nullDoc)).toMatchObject({
      title: null,
      created_at_source: 'epoch-unknown',
      source: 'global',
    });
    expect((await messages(KS.nullDoc)).map((r) => r.message_id)).toEqual(['n-1']);
  });

  it('workspace attribution: stamp by storage ID, Windows URI, WSL remote, pane pointer, global headers', async () => {
    const expected: [string, string][] = [
      [KS.quirky, KS_PATHS.acme],
      [KS.stampById, KS_PATHS.multi],
      [KS.stampWindows, KS_PATHS.windows],
      [KS.stampWsl, KS_PATHS.wsl],
      [KS.paneOnly, KS_PATHS.windows],
      [KS.headerStamped, KS_PATHS.headerOnly],
      [KS.sharedB, KS_PATHS.sharedB],
    ];
    for (const [id, path] of expected) expect((await session(id)).workspace_path, id).toBe(path);
    expect((await session(KS.caseUpper)).workspace_path).toBeNull();
  });

  it('index-only head session → workspace-fallback placeholders: name, generations inside the window only', async () => {
    expect(await session(KS.fallbackHead)).toMatchObject({
      source: 'workspace-fallback',
      fidelity: 'partial',
      workspace_path: KS_PATHS.acme,
    });
    const rows = await messages(KS.fallbackHead);
    expect(rows.map((r) => [r.message_id, r.content, r.timestamp_source])).toEqual([
      ['msg:0', 'Lost bubbles', 'inferred-next'],
      ['gen-in-window', 'make the button blue', 'composer-timing'],
    ]);
  });

  it('2024 inline conversation → real messages with native IDs, workspace path from a .code-workspace', async () => {
    expect(await session(KS.fallbackInline)).toMatchObject({
      source: 'workspace-fallback',
      workspace_path: KS_PATHS.multi,
    });
    expect((await messages(KS.fallbackInline)).map((r) => [r.message_id, r.role, r.content])).toEqual([
      ['i-1', 'user', 'Add a sidebar'],
      ['i-2', 'assistant', 'Here is a plan'],
    ]);
  });

  it('legacy chat tabs (tabId/chatTitle/bubbles) load; their unproven times are unknown and never inferred from', async () => {
    expect(await session(KS.legacyTab)).toMatchObject({
      title: 'Legacy chat',
      workspace_path: KS_PATHS.devContainer,
    });
    const rows = await messages(KS.legacyTab);
    expect(rows.map((r) => [r.message_id, r.role, r.timestamp_source])).toEqual([
      ['l-1', 'user', 'unknown'],
      ['l-2', 'assistant', 'unknown'],
      ['msg:2', 'assistant', 'unknown'],
    ]);
    expect(rows[0]!.ms).toBe(T0 - 90_100_000);
    expect(rows[1]!.ms).toBe(0);
  });

  it('a missing workspace.json gives a pathless workspace (NULL), never a placeholder label', async () => {
    const row = await session(KS.pathlessHead);
    expect(row.workspace_path).toBeNull();
    const all = await queryRows(
      warehouse,
      "select count(*) as n from sessions where workspace_path like '%(workspace%'",
    );
    expect(Number(all[0]!.n)).toBe(0);
  });

  it('no physical path appears in source instances or diagnostics', async () => {
    const refs = await queryRows(warehouse, 'select occurrence_ref from source_instances');
    expect(refs.every((r) => /^occ:[0-9a-f]{32}$/.test(String(r.occurrence_ref)))).toBe(true);
    expect(JSON.stringify(diagnostics)).not.toMatch(/state\.vscdb|workspaceStorage/);
  });
});
