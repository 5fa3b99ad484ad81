/**
 * Compatibility Matrix v1, Store and merge cells, end to end through the built CLI into DuckDB, on
 * the live default path (HOME with `.cursor/` and `.config/Cursor/User`) and a custom data path.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildStoreMatrix, CWD, IDS, OTHER_CWD, SECRET_KEY } from '../../fixtures/store/store-matrix.js';
import { runCli, tempDir } from '../helpers/run-cli.js';

type Row = Record<string, unknown>;

interface Warehouse {
  runStdout: string;
  sessions: Map<string, Row>;
  messages: Row[];
  instances: Row[];
  tools: Row[];
  dump: string;
}

/** One `etl query` for every table (each process start is slow on a shared machine). */
function tables(
  target: string,
): Record<'sessions' | 'messages' | 'instances' | 'tools' | 'diagnostics', Row[]> {
  const sql =
    'select (select to_json(list(s order by session_id)) from sessions s) as sessions, ' +
    '(select to_json(list(m order by session_id, ordinal)) from messages m) as messages, ' +
    '(select to_json(list(i order by session_id, instance_ordinal)) from source_instances i) as instances, ' +
    '(select to_json(list(t order by session_id, message_id, tool_ordinal)) from tool_calls t) as tools, ' +
    '(select to_json(list(d order by seq)) from diagnostics d) as diagnostics';
  const result = runCli(['query', '--json', '--target', target, sql]);
  expect(result.code, result.stderr).toBe(0);
  const row = JSON.parse(result.stdout).rows[0] as Record<string, string | null>;
  const parse = (text: string | null | undefined): Row[] => (text ? (JSON.parse(text) as Row[]) : []);
  return {
    sessions: parse(row.sessions),
    messages: parse(row.messages),
    instances: parse(row.instances),
    tools: parse(row.tools),
    diagnostics: parse(row.diagnostics),
  };
}

function load(args: string[], target: string, env: Record<string, string> = {}): Warehouse {
  const run = runCli(['run', '--json', ...args, '--target', target], env);
  expect(run.code, run.stderr).toBe(0);
  const t = tables(target);
  return {
    runStdout: run.stdout + run.stderr,
    sessions: new Map(t.sessions.map((s) => [s.session_id as string, s])),
    messages: t.messages,
    instances: t.instances,
    tools: t.tools,
    dump: JSON.stringify(t),
  };
}

/** JSON columns arrive parsed from `to_json`; tolerate text too. */
const jsonValue = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);
/** The compact directory's session: its name re-dashed 8-4-4-4-12. */
const COMPACT_SESSION = '50000000-0000-4000-8000-00000000000b';
const messagesOf = (w: Warehouse, id: string) => w.messages.filter((m) => m.session_id === id);
const instancesOf = (w: Warehouse, id: string) =>
  w.instances
    .filter((i) => i.session_id === id)
    .map((i) => `${i.representation}:${i.state}`)
    .sort();

interface Carrier {
  name: string;
  setup(): { args: string[]; env: Record<string, string>; storeRoot: string; userDir: string };
}

const CARRIERS: Carrier[] = [
  {
    name: 'live default path',
    setup() {
      const home = tempDir('etl-store-home-');
      const paths = buildStoreMatrix(join(home, '.cursor'), join(home, '.config', 'Cursor', 'User'));
      return { args: [], env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') }, ...paths };
    },
  },
  {
    name: 'custom data path',
    setup() {
      const root = tempDir('etl-store-custom-');
      const paths = buildStoreMatrix(join(root, 'store'), join(root, 'User'));
      return {
        args: ['--cursor-store-root', paths.storeRoot, '--cursor-user-dir', paths.userDir],
        env: {},
        ...paths,
      };
    },
  },
];

describe.each(CARRIERS)('Compatibility Matrix v1 Store cells ($name)', (carrier) => {
  let w: Warehouse;
  let storePreferred: Warehouse;
  let again: Warehouse;
  let composerOnly: Warehouse;
  let sourcesOut: string;
  let scoped: Warehouse;
  let optIn: Warehouse;
  beforeAll(() => {
    const { args, env, userDir } = carrier.setup();
    const dir = tempDir('etl-store-wh-');
    w = load(args, `duckdb:${join(dir, 'a.duckdb')}`, env);
    storePreferred = load([...args, '--prefer', 'store'], `duckdb:${join(dir, 'b.duckdb')}`, env);
    again = load(args, `duckdb:${join(dir, 'c.duckdb')}`, env);
    composerOnly = load(['--cursor-user-dir', userDir], `duckdb:${join(dir, 'd.duckdb')}`);
    scoped = load([...args, '--workspace', CWD], `duckdb:${join(dir, 'e.duckdb')}`, env);
    optIn = load(
      [...args, '--workspace', CWD, '--include-cross-workspace-sources'],
      `duckdb:${join(dir, 'f.duckdb')}`,
      env,
    );
    const sources = runCli(['sources', '--json', ...args], env);
    sourcesOut = sources.stdout + sources.stderr;
  }, 400_000);

  it(`Store database conversation — ${carrier.name}`, () => {
    const s = w.sessions.get(IDS.db)!;
    expect(s).toMatchObject({
      resolved_source: 'store-db',
      fidelity: 'complete',
      source: 'global',
      created_at_source: 'store-db-metadata',
    });
    const messages = messagesOf(w, IDS.db);
    // system ignored, tool leaves joined to calls: user, assistant (protobuf), OpenAI assistant, final assistant
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant', 'assistant']);
    expect(messages.every((m) => /^store:v1:db:[0-9a-f]{64}:1$/.test(m.message_id as string))).toBe(true);
    expect(messages.every((m) => m.timestamp_source === 'session-fallback')).toBe(true);
    expect(messages[1]!.thinking).toBe('Find the router.');
    const tools = w.tools.filter((t) => t.session_id === IDS.db);
    // Tool identity v1 under the Store message ID; the Store call ID only joins the result.
    expect(tools.map((t) => [t.tool_id_origin, t.native_call_id, t.name, t.result])).toEqual([
      ['tool-v1', 'toolu_01', 'Read', 'export const app = 1;'],
      ['tool-v1', 'c1', 'Calc', '4'],
    ]);
    expect(tools.every((t) => String(t.tool_id).startsWith(`tool:v1:${t.message_id}:`))).toBe(true);
    expect(w.dump).not.toContain('abandoned branch');
  });

  it(`Store transcript with no discovered or expected database — ${carrier.name}`, () => {
    const s = w.sessions.get(IDS.transcriptOnly)!;
    expect(s).toMatchObject({
      resolved_source: 'store-transcript',
      fidelity: 'complete',
      transcript_state: 'parsed',
    });
    expect(messagesOf(w, IDS.transcriptOnly).map((m) => m.message_id)).toEqual([
      'store:v1:transcript:18cbc587f6d6e40d49acffff66669021d0639eab7bc191d7c5c67e2ff50e11e7:1',
      'store:v1:transcript:728a498d8cfac2cab81f2a9fa2ad856b2b8fd1eb54956568530cfb6ffa2e8624:1',
      expect.stringMatching(/^store:v1:transcript:[0-9a-f]{64}:1$/),
    ]);
  });

  it(`Store transcript fallback after capable DB setup: expected DB absent, empty, or source-corrupt/unreadable — ${carrier.name}`, () => {
    for (const id of [IDS.fallbackNoDb, IDS.fallbackCorruptDb]) {
      const s = w.sessions.get(id)!;
      expect(s).toMatchObject({
        resolved_source: 'store-transcript',
        fidelity: 'partial',
        source: 'workspace-fallback',
      });
      expect(jsonValue(s.reason_codes)).toContain('expected-store-db-unavailable');
      expect(messagesOf(w, id)).toHaveLength(3);
    }
    expect(instancesOf(w, IDS.fallbackCorruptDb)).toContain('store-db:failed');
  });

  it(`Usable Store database coexists with a Store transcript and all known relevant Store occurrences are permitted — ${carrier.name}`, () => {
    expect(w.sessions.get(IDS.coexisting)).toMatchObject({
      resolved_source: 'store-db',
      fidelity: 'complete',
    });
    expect(instancesOf(w, IDS.coexisting)).toEqual(['store-db:contributed', 'store-transcript:superseded']);
    // never unioned: only the DB's messages
    expect(messagesOf(w, IDS.coexisting).every((m) => String(m.message_id).startsWith('store:v1:db:'))).toBe(
      true,
    );
  });

  it(`Workspace-scoped Store UUID has a known database or transcript occurrence outside the default I/O boundary — ${carrier.name}`, () => {
    const s = scoped.sessions.get(IDS.scopedStore)!;
    expect(s).toMatchObject({
      resolved_source: 'store-db',
      fidelity: 'partial',
      source: 'workspace-fallback',
    });
    expect(jsonValue(s.reason_codes)).toContain('workspace-scope-omitted');
    expect(instancesOf(scoped, IDS.scopedStore)).toEqual([
      'store-db:contributed',
      'store-transcript:omitted-by-scope',
    ]);
    // unscoped, the same UUID is complete with the transcript superseded
    expect(w.sessions.get(IDS.scopedStore)).toMatchObject({ fidelity: 'complete' });
    expect(instancesOf(w, IDS.scopedStore)).toEqual(['store-db:contributed', 'store-transcript:superseded']);
    // a session of the other workspace is not selected at all
    expect(scoped.sessions.has(IDS.otherWorkspace)).toBe(false);
    expect(w.sessions.has(IDS.otherWorkspace)).toBe(true);
  });

  it(`Scoped merged UUID with a known contributor outside the default workspace I/O boundary — ${carrier.name}`, () => {
    const s = scoped.sessions.get(IDS.merged)!;
    expect(s).toMatchObject({ resolved_source: 'merged', fidelity: 'partial' });
    expect(jsonValue(s.reason_codes)).toContain('workspace-scope-omitted');
    expect(instancesOf(scoped, IDS.merged)).toContain('store-transcript:omitted-by-scope');
    expect(messagesOf(scoped, IDS.merged).map((m) => m.message_id)).toEqual(
      messagesOf(w, IDS.merged).map((m) => m.message_id),
    );
  });

  it(`Scoped merged UUID with explicit selected-UUID cross-workspace contributor opt-in — ${carrier.name}`, () => {
    expect(optIn.sessions.get(IDS.merged)).toMatchObject({ resolved_source: 'merged', fidelity: 'complete' });
    const broadened = optIn.instances.find(
      (i) => i.session_id === IDS.merged && i.representation === 'store-transcript',
    )!;
    expect(broadened).toMatchObject({ state: 'superseded', workspace_path: OTHER_CWD });
    // opt-in broadens selected UUIDs only: the other workspace's own session stays out
    expect(optIn.sessions.has(IDS.otherWorkspace)).toBe(false);
  });

  it(`Complete Composer/Store merge, Composer-preferred ordering — ${carrier.name}`, () => {
    const s = w.sessions.get(IDS.merged)!;
    expect(s).toMatchObject({
      resolved_source: 'merged',
      preferred_source: 'composer',
      fidelity: 'complete',
      title: 'Composer title',
    });
    const messages = messagesOf(w, IDS.merged);
    expect(messages.map((m) => [String(m.message_id).slice(0, 12), m.origin])).toEqual([
      ['store:v1:db:', 'store'],
      ['m-01', 'both'],
      ['m-02', 'both'],
      ['store:v1:db:', 'store'],
      ['m-03', 'both'],
      ['m-04', 'both'],
      ['store:v1:db:', 'store'],
    ]);
    // parents follow the merged active branch
    expect(messages.slice(1).map((m) => m.parent_message_id)).toEqual(
      messages.slice(0, -1).map((m) => m.message_id),
    );
    const tool = w.tools.find((t) => t.session_id === IDS.merged)!;
    expect(tool).toMatchObject({ message_id: 'm-02', name: 'Read', result: 'file body' });
  });

  it(`Complete Composer/Store merge, Store-preferred ordering — ${carrier.name}`, () => {
    const s = storePreferred.sessions.get(IDS.merged)!;
    expect(s).toMatchObject({
      resolved_source: 'merged',
      preferred_source: 'store',
      fidelity: 'complete',
      title: 'Store title',
    });
    const ids = (wh: Warehouse) => messagesOf(wh, IDS.merged).map((m) => m.message_id);
    expect(ids(storePreferred)).toEqual(ids(w));
    expect(messagesOf(storePreferred, IDS.merged)[1]!.content).toBe(
      '<user_query>\nAdd a /health endpoint\n</user_query>',
    );
  });

  it(`Store metadata indicating a possible conversation but no usable payload — ${carrier.name}`, () => {
    const s = w.sessions.get(IDS.metadataOnly)!;
    expect(s).toMatchObject({
      resolved_source: 'store-metadata',
      fidelity: 'partial',
      message_count: 0,
      created_at_source: 'store-meta',
    });
    expect(jsonValue(s.reason_codes)).toEqual(['store-conversation-unavailable']);
    expect(w.sessions.has(IDS.noConversation)).toBe(false);
  });

  it(`Equivalent same-role Store replicas — ${carrier.name}`, () => {
    expect(w.sessions.get(IDS.equivalent)).toMatchObject({ resolution_state: 'complete', message_count: 4 });
    expect(instancesOf(w, IDS.equivalent)).toEqual(['store-db:contributed', 'store-db:equivalent-replica']);
  });

  it(`Divergent same-role Store replicas — ${carrier.name}`, () => {
    expect(w.sessions.get(IDS.divergent)).toMatchObject({
      resolution_state: 'ambiguous',
      fidelity: 'partial',
      message_count: 0,
    });
    expect(w.runStdout).toContain('REPLICA_DIVERGENT');
  });

  it(`Automatic selection or union of divergent replicas is rejected — ${carrier.name}`, () => {
    // Neither replica's conversation is picked and nothing is unioned: no message of either side loads.
    expect(messagesOf(w, IDS.divergent)).toEqual([]);
    expect(instancesOf(w, IDS.divergent)).toEqual(['store-db:contributed', 'store-db:contributed']);
    expect(
      w.instances
        .filter((i) => i.session_id === IDS.divergent)
        .every((i) => i.reason_code === 'replica-divergent'),
    ).toBe(true);
  });

  it(`a merged session's Composer message IDs are byte-identical to the Composer-only read — ${carrier.name}`, () => {
    const composerIds = messagesOf(composerOnly, IDS.merged).map((m) => m.message_id);
    expect(composerIds).toEqual(['m-01', 'm-02', 'm-03', 'm-04']);
    const mergedComposerIds = messagesOf(w, IDS.merged)
      .filter((m) => m.origin !== 'store')
      .map((m) => m.message_id);
    expect(mergedComposerIds).toEqual(composerIds);
    const toolIds = (wh: Warehouse) =>
      wh.tools.filter((t) => t.session_id === IDS.merged).map((t) => t.tool_id);
    expect(toolIds(w)).toEqual(toolIds(composerOnly));
  });

  it(`reading the same Store tree twice yields identical identities and digests — ${carrier.name}`, () => {
    const digests = (wh: Warehouse) => [...wh.sessions.values()].map((s) => [s.session_id, s.view_digest]);
    expect(digests(again)).toEqual(digests(w));
    expect(again.messages.map((m) => m.message_id)).toEqual(w.messages.map((m) => m.message_id));
  });

  it(`subagent and legacy .txt transcripts are reported by sources and loaded as their own sessions — ${carrier.name}`, () => {
    const kinds = JSON.parse(sourcesOut).kinds.map((k: Row) => k.kind);
    expect(kinds).toEqual(expect.arrayContaining(['store-subagent-transcript', 'store-legacy-transcript']));
    expect(w.sessions.get(IDS.subagent)).toMatchObject({
      parent_session_id: IDS.transcriptOnly,
      resolved_source: 'store-transcript',
    });
    expect(messagesOf(w, IDS.legacyTxt).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(w.tools.find((t) => t.session_id === IDS.legacyTxt)).toMatchObject({
      name: 'Shell',
      params: { command: 'npm run build' },
    });
    expect(w.sessions.get(COMPACT_SESSION)).toMatchObject({ resolved_source: 'store-db', message_count: 2 });
  });

  it(`never outputs blobEncryptionKey or any meta secret — ${carrier.name}`, () => {
    for (const text of [w.runStdout, w.dump, storePreferred.dump, sourcesOut])
      expect(text).not.toContain(SECRET_KEY);
  });
});
